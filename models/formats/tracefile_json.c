/*
 * tracefile_json: the JSON-lines half of the trace reader (tracefile.h; tracefile.c feeds it lines and parses
 * the values it collects, as for CSV rows).
 */
#include "tracefile_private.h"

#include <stdlib.h>
#include <string.h>

#include "status.h"


/*
 * YAJL calls back once per token of the whole file (yajl_allow_multiple_values: one parser for all the
 * lines). Depth 0 is between objects; at depth 1 a key that the mapping names (keymask) has its scalar
 * value copied into val[] as its text (a string's content, a number's digits as written, true, false or
 * null) and its type noted; the hash-id array's numbers at depth 2 go into hashes[]. Anything else is
 * skipped. Each callback returns 0 (stop) once a failure is recorded.
 */

static const char *jtype_name(enum jtype j)
{
	static const char *const names[] = { "nothing", "a string", "a number", "true, false or null", "an array",
		"an object" };
	return names[j];
}

static int not_object(struct tracefile *t, const char *got)
{
	return tracefile_fail(t, STATUS_EINPUT, t->line, "%s; expected one JSON object per line", got);
}

/* What mapped key k's value must be. */
static const char *want_type(const struct tracefile *t, int k)
{
	if (k == C_HASH)
		return "an array of whole numbers (prefix block ids)";
	if (k >= C_WHERE)
		return "a string, number, true, false or null";
	return k == C_TIME && t->m.time_format == TRACE_TIME_ISO ? "a string" : "a number";
}

static int wrong_type(struct tracefile *t, int k, enum jtype got)
{
	return tracefile_fail(t, STATUS_EINPUT, t->row_line, "key '%s' is %s; expected %s", t->name[k], jtype_name(got),
		    want_type(t, k));
}

/* A hash id: digits only, 0 to INT64_MAX. */
static int hash_id(struct tracefile *t, const char *s, size_t len)
{
	int64_t v = 0;
	char got[GOT_BUF], text[FIELD_MAX];
	size_t i;

	for (i = 0; i < len && tracefile_is_digit(s[i]) && v <= (INT64_MAX - (s[i] - '0')) / 10; i++)
		v = v * 10 + (s[i] - '0');
	if (i < len || len == 0) {
		snprintf(text, sizeof text, "%.*s", (int)(len < FIELD_MAX ? len : FIELD_MAX - 1), s);
		return tracefile_fail(t, STATUS_EINPUT, t->row_line, "bad hash id %s in key '%s'; expected a whole number "
			    "from 0 to %lld", tracefile_quote(text, got), t->name[C_HASH], (long long)INT64_MAX);
	}
	if (t->nhashes >= TRACEFILE_HASHES_MAX)
		return tracefile_fail(t, STATUS_EINPUT, t->row_line, "more than %d hash ids in key '%s'; expected at most %d "
			    "prefix blocks per request", TRACEFILE_HASHES_MAX, t->name[C_HASH], TRACEFILE_HASHES_MAX);
	if (t->nhashes >= t->hcap) {
		int32_t cap = t->hcap ? t->hcap * 2 : 64;
		uint64_t *bigger = realloc(t->hashes, (size_t)cap * sizeof *bigger);

		if (!bigger)
			return tracefile_fail(t, STATUS_ENOMEM, t->row_line, "out of memory reading hash ids; expected rows "
				    "that fit in memory");
		t->hashes = bigger;
		t->hcap = cap;
	}
	t->hashes[t->nhashes++] = (uint64_t)v;
	return STATUS_OK;
}

/* A scalar of type j, its text [s, s + len). */
static int j_scalar(struct tracefile *t, enum jtype j, const char *s, size_t len)
{
	if (t->rc)
		return 0;
	if (t->depth == 0)
		return !not_object(t, j == J_STRING ? "a JSON string, not an object" : "a JSON scalar, not an object");
	if (t->in_hash && t->depth == 2) {
		if (j != J_NUMBER)
			return !wrong_type(t, C_HASH, j);
		return hash_id(t, s, len) == STATUS_OK;
	}
	if (t->depth != 1)
		return 1;
	for (int k = 0; k < C_N; k++) {
		size_t n = len < FIELD_MAX ? len : FIELD_MAX - 1;

		if (!(t->keymask >> k & 1))
			continue;
		if (k == C_HASH)
			return !wrong_type(t, k, j);
		for (size_t i = 0; i < n; i++)
			t->val[k][i] = s[i] ? s[i] : '?';  /* a \u0000 in a string cannot pass as its end */
		t->val[k][n] = '\0';
		t->vlen[k] = len;
		t->jt[k] = j;
	}
	return 1;
}

static int j_null(void *u)
{
	return j_scalar(u, J_OTHER, "null", 4);
}

static int j_boolean(void *u, int b)
{
	return j_scalar(u, J_OTHER, b ? "true" : "false", b ? 4 : 5);
}

static int j_number(void *u, const char *s, size_t len)
{
	return j_scalar(u, J_NUMBER, s, len);
}

static int j_string(void *u, const unsigned char *s, size_t len)
{
	return j_scalar(u, J_STRING, (const char *)s, len);
}

/* The start of an object or array (j): a row begins at depth 0; a mapped key's value may not be one. */
static int j_open(struct tracefile *t, enum jtype j)
{
	if (t->rc)
		return 0;
	if (t->depth == 0) {
		if (j != J_OBJECT)
			return !not_object(t, "a JSON array, not an object");
		if (t->objects > 0)
			return !not_object(t, "a second JSON object on the line");
		t->row_line = t->line;
		t->any_object = true;
		if (t->hswap) {  /* keep the returned row's ids; a filtered row's are simply overwritten */
			uint64_t *h = t->hashes;
			int32_t cap = t->hcap;

			t->hashes = t->hspare;
			t->hcap = t->hspare_cap;
			t->hspare = h;
			t->hspare_cap = cap;
			t->hswap = false;
		}
		t->nhashes = 0;
		t->in_hash = false;
		for (int k = 0; k < C_N; k++)
			t->jt[k] = J_NONE;
	} else if (t->in_hash && t->depth == 2) {
		return !wrong_type(t, C_HASH, j);
	} else if (t->depth == 1 && t->keymask) {
		for (int k = 0; k < C_N; k++)
			if (t->keymask >> k & 1 && (k != C_HASH || j != J_ARRAY))
				return !wrong_type(t, k, j);
		t->in_hash = true;
		t->nhashes = 0;
		t->jt[C_HASH] = J_ARRAY;
	}
	t->depth++;
	return 1;
}

static int j_start_map(void *u)
{
	return j_open(u, J_OBJECT);
}

static int j_start_array(void *u)
{
	return j_open(u, J_ARRAY);
}

static int j_map_key(void *u, const unsigned char *s, size_t len)
{
	struct tracefile *t = u;

	if (t->rc)
		return 0;
	if (t->depth != 1)
		return 1;
	t->keymask = 0;
	for (int k = 0; k < C_N; k++)
		if (t->name[k][0] && strlen(t->name[k]) == len && memcmp(t->name[k], s, len) == 0)
			t->keymask |= 1u << k;
	return 1;
}

/* Whether the value of mapped key k has the type its role needs. */
static bool type_ok(const struct tracefile *t, int k)
{
	if (k >= C_WHERE)
		return t->jt[k] == J_STRING || t->jt[k] == J_NUMBER || t->jt[k] == J_OTHER;
	if (k == C_TIME && t->m.time_format == TRACE_TIME_ISO)
		return t->jt[k] == J_STRING;
	return t->jt[k] == J_NUMBER;
}

/* Mapped key k of the object just read: present, and of the type its role needs. */
static int check_key(struct tracefile *t, int k)
{
	if (!t->name[k][0])
		return STATUS_OK;
	if (t->jt[k] == J_NONE)
		return tracefile_fail(t, STATUS_EINPUT, t->row_line, "no key '%s' in the object; expected the %s key named in "
			    "the mapping (names are case-sensitive)", t->name[k], tracefile_role[k]);
	if (k != C_HASH && !type_ok(t, k))
		return wrong_type(t, k, t->jt[k]);
	return STATUS_OK;
}

/* A whole object has been read: check its filter keys, then (a row kept) its other mapped keys; take it. */
static int end_object(struct tracefile *t)
{
	int rc;

	for (int k = C_WHERE; k < C_N; k++)
		if ((rc = check_key(t, k)))
			return rc;
	for (int k = 0; k < C_WHERE && tracefile_kept(t); k++)  /* a row left out: its other keys do not matter */
		if ((rc = check_key(t, k)))
			return rc;
	return tracefile_take_row(t);
}

static int j_close(void *u)
{
	struct tracefile *t = u;

	if (t->rc)
		return 0;
	if (--t->depth == 1)
		t->in_hash = false;
	if (t->depth == 0) {
		t->objects++;
		if (end_object(t))
			return 0;
	}
	return 1;
}

const yajl_callbacks tracefile_jcallbacks = {
	.yajl_null = j_null, .yajl_boolean = j_boolean, .yajl_number = j_number, .yajl_string = j_string,
	.yajl_start_map = j_start_map, .yajl_map_key = j_map_key, .yajl_end_map = j_close,
	.yajl_start_array = j_start_array, .yajl_end_array = j_close,
};

/* YAJL's own message for a syntax error, on one line. */
int tracefile_json_failed(struct tracefile *t)
{
	unsigned char *e;
	char msg[160];

	if (t->rc)
		return t->rc;
	e = yajl_get_error(t->y, 0, NULL, 0);
	snprintf(msg, sizeof msg, "%s", e ? (const char *)e : "unknown error");
	if (e)
		yajl_free_error(t->y, e);
	msg[strcspn(msg, "\r\n")] = '\0';
	return tracefile_fail(t, STATUS_EINPUT, t->line, "not valid JSON (yajl: %s); expected one JSON object per line", msg);
}

/* The end of a line (or of the file): it must not be inside an object. */
void tracefile_json_line_end(struct tracefile *t)
{
	if (!t->rc && t->depth > 0)
		tracefile_fail(t, STATUS_EINPUT, t->row_line, "the line ends inside a JSON object; expected one complete JSON "
		     "object per line");
	t->objects = 0;
	t->row_bytes = 0;
}
