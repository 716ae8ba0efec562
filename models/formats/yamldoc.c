/*
 * yamldoc: typed, positioned reading of a YAML document (a scenario, a sweep file), and --set overrides
 * (see yamldoc.h).
 *
 * libfyaml reports syntax errors through a struct fy_diag. We create one that collects errors instead of
 * printing them and whose output function fills y->libmsg, so the library never writes to stderr; the first
 * collected error becomes our message, with libfyaml's own line and column (it counts from 1).
 *
 * Positions of values come from their scalar tokens (struct fy_mark counts from 0, so we add 1). Mappings
 * and lists have no token of their own in libfyaml 0.7, so a collection is placed at the key that names
 * it, or failing that at its first child. Nodes created or replaced by an override carry a pointer to that
 * override in their libfyaml "meta" slot; messages about them name the override instead of a position.
 */
#include "yamldoc.h"

#include <errno.h>
#include <libfyaml.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

#define GOT_MAX 64        /* bytes of a bad value quoted back in a message */
#define GOT_BUF 160       /* room for them quoted, escaped and described */
#define SET_PARTS_MAX 32  /* components in a --set path */

struct yamldoc_set {
	const char *text;  /* "a.b=value", borrowed from the caller */
};

/* Where a message points: a position, an override, or neither (the file name alone). */
struct where {
	int line;                              /* from 1; 0 when unknown */
	int col;                               /* from 1; 0 when unknown */
	const struct yamldoc_set *set;   /* the override that made the node, or NULL */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- positions and failures ---------------------------------------------------------------------- */

/* Find where node n is: its token, its override, or its first child's. False if none of them is known. */
static bool node_where(struct fy_node *n, struct where *w)
{
	void *it = NULL;
	struct fy_node_pair *p;
	struct fy_token *t;
	const struct fy_mark *m;

	if (!n)
		return false;
	w->set = fy_node_get_meta(n);
	if (w->set)
		return true;
	switch (fy_node_get_type(n)) {
	case FYNT_SCALAR:
		t = fy_node_get_scalar_token(n);
		m = t ? fy_token_start_mark(t) : NULL;
		if (!m)
			return false;  /* an empty value has no token */
		w->line = m->line + 1;
		w->col = m->column + 1;
		return true;
	case FYNT_MAPPING:
		p = fy_node_mapping_iterate(n, &it);
		return p && node_where(fy_node_pair_key(p), w);
	case FYNT_SEQUENCE:
		return node_where(fy_node_sequence_iterate(n, &it), w);
	}
	return false;
}

/* A scalar at its own position; anything else at the key that names it; else the enclosing ref's. */
static void ref_where(const struct yamldoc_ref *r, struct where *w)
{
	for (; r; r = r->up) {
		if (r->node && fy_node_is_scalar(r->node) && node_where(r->node, w))
			return;
		if (r->key && node_where(r->key, w))
			return;
		if (r->node && node_where(r->node, w))
			return;
	}
}

void yamldoc_where(const struct yamldoc_ref *r, int *line, int *col)
{
	struct where w = { 0, 0, NULL };

	ref_where(r, &w);
	*line = w.set ? 0 : w.line;
	*col = w.set ? 0 : w.col;
}

const char *yamldoc_where_text(const struct yamldoc_ref *r, char *buf, size_t size)
{
	struct where w = { 0, 0, NULL };

	ref_where(r, &w);
	if (w.set)
		snprintf(buf, size, "--set %s", w.set->text);
	else if (w.line > 0)
		snprintf(buf, size, "line %d, column %d", w.line, w.col);
	else
		snprintf(buf, size, "an unknown place");
	return buf;
}

static int vfail(struct yamldoc *y, const struct yamldoc_ref *r, const char *fmt, va_list ap)
{
	char msg[DIAG_MSG_MAX], label[DIAG_MSG_MAX];
	const char *sep = r->path[0] ? ": " : "";
	struct where w = { 0, 0, NULL };

	vsnprintf(msg, sizeof msg, fmt, ap);
	ref_where(r, &w);
	if (w.set) {
		snprintf(label, sizeof label, "--set %s", w.set->text);
		return diag_at(y->d, STATUS_EINPUT, label, 0, 0, "%s%s%s", r->path, sep, msg);
	}
	return diag_at(y->d, STATUS_EINPUT, y->label, w.line, w.col, "%s%s%s", r->path, sep, msg);
}

int yamldoc_fail(struct yamldoc *y, const struct yamldoc_ref *r, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vfail(y, r, fmt, ap);
	va_end(ap);
	return rc;
}

static int nomem(struct yamldoc *y)
{
	return diag_at(y->d, STATUS_ENOMEM, y->label, 0, 0, "out of memory while reading the scenario");
}

/*
 * Describe what a node holds for "..., got X": 'text' (control characters escaped, long text cut), nothing,
 * a mapping or a list. Returns buf.
 */
static const char *describe(struct fy_node *n, char *buf, size_t size)
{
	const char *s;
	size_t len, o = 0;

	if (fy_node_is_mapping(n))
		return "a mapping";
	if (fy_node_is_sequence(n))
		return "a list";
	s = n ? fy_node_get_scalar(n, &len) : NULL;
	if (!s || len == 0)
		return "nothing";
	if (fy_node_get_style(n) == FYNS_ALIAS) {
		snprintf(buf, size, "an alias (*%.*s), which scenarios do not support",
			 (int)(len < GOT_MAX ? len : GOT_MAX), s);
		return buf;
	}
	buf[o++] = '\'';
	for (size_t i = 0; i < len && o + 8 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i >= GOT_MAX && (c & 0xC0) != 0x80) {  /* cut at a character boundary */
			o += (size_t)snprintf(buf + o, size - o, "...");
			break;
		}
		if (c < 0x20 || c == 0x7F)
			o += (size_t)snprintf(buf + o, size - o, "\\x%02X", c);
		else
			buf[o++] = (char)c;
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

/* ---- opening the document ------------------------------------------------------------------------ */

/* libfyaml output that is not a collected error: keep the start of the first, print nothing. */
static void capture_output(struct fy_diag *fyd, void *user, const char *buf, size_t len)
{
	struct yamldoc *y = user;
	int n = (int)strcspn(buf, "\n");

	(void)fyd;
	if (!y->libmsg[0])
		snprintf(y->libmsg, sizeof y->libmsg, "%.*s", (size_t)n < len ? n : (int)len, buf);
}

/* Report libfyaml's first error, if it raised one; STATUS_OK if it did not. */
static int syntax_error(struct yamldoc *y)
{
	void *it = NULL;
	struct fy_diag_error *e;

	while ((e = fy_diag_errors_iterate(y->fydiag, &it)))
		if (e->type >= FYET_ERROR)
			return diag_at(y->d, STATUS_EINPUT, y->label, e->line, e->column, "invalid YAML: %s",
				       e->msg);
	if (fy_diag_got_error(y->fydiag) || y->libmsg[0])
		return diag_at(y->d, STATUS_EINPUT, y->label, 0, 0, "invalid YAML: %s",
			       y->libmsg[0] ? y->libmsg : "the parser gave no detail");
	return STATUS_OK;
}

/* Length of the valid UTF-8 sequence at s (n > 0 bytes left), or 0: RFC 3629, no overlongs or surrogates. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : s[0] < 0xF5 ? 4 : 0;
	unsigned char lo = s[0] == 0xE0 ? 0xA0 : s[0] == 0xF0 ? 0x90 : 0x80;
	unsigned char hi = s[0] == 0xED ? 0x9F : s[0] == 0xF4 ? 0x8F : 0xBF;

	if (len < 2)
		return len;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/*
 * Reject a NUL byte or invalid UTF-8 at its line and column (in characters). libfyaml 0.7 silently ends a
 * scalar at a NUL, accepts some invalid bytes and loops forever on others (0.7.12: "%" then byte 0xAE, a
 * directive, hangs fy_scan_directive), so every text is checked here before libfyaml sees it.
 */
static int check_text(const char *text, size_t len, const char *label, struct diag *d)
{
	const unsigned char *s = (const unsigned char *)text;
	int line = 1, col = 1;

	for (size_t i = 0, n; i < len; i += n, col++) {
		n = utf8_len(s + i, len - i);
		if (s[i] == 0)
			return diag_at(d, STATUS_EINPUT, label, line, col, "a NUL byte; expected a UTF-8 text file");
		if (n == 0)
			return diag_at(d, STATUS_EINPUT, label, line, col, "invalid UTF-8 (byte 0x%02X); expected a "
				       "UTF-8 text file", s[i]);
		if (s[i] == '\n') {
			line++;
			col = 0;
		}
	}
	return STATUS_OK;
}

int yamldoc_open(struct yamldoc *y, const char *text, size_t len, const char *label,
		       struct diag *d)
{
	struct fy_diag_cfg dcfg;
	struct fy_parse_cfg pcfg;
	struct fy_document *extra;
	struct where w = { 0, 0, NULL };

	memset(y, 0, sizeof *y);
	y->label = label;
	y->d = d;
	if (check_text(text, len, label, d))
		return STATUS_EINPUT;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = capture_output;
	dcfg.user = y;
	dcfg.level = FYET_ERROR;
	dcfg.colorize = false;
	y->fydiag = fy_diag_create(&dcfg);
	if (!y->fydiag)
		return nomem(y);
	fy_diag_set_collect_errors(y->fydiag, true);
	memset(&pcfg, 0, sizeof pcfg);
	pcfg.flags = FYPCF_QUIET;
	pcfg.diag = y->fydiag;
	y->fyp = fy_parser_create(&pcfg);
	if (!y->fyp || fy_parser_set_string(y->fyp, text, len) != 0)
		return nomem(y);
	y->fyd = fy_parse_load_document(y->fyp);
	if (!y->fyd)
		return syntax_error(y);  /* STATUS_OK with no document: the file is empty */
	extra = fy_parse_load_document(y->fyp);
	if (extra) {
		node_where(fy_document_root(extra), &w);
		fy_parse_document_destroy(y->fyp, extra);
		return diag_at(d, STATUS_EINPUT, label, w.line, w.col,
			       "a second YAML document; expected one document per file");
	}
	return syntax_error(y);
}

void yamldoc_close(struct yamldoc *y)
{
	if (y->fyd)
		fy_parse_document_destroy(y->fyp, y->fyd);
	if (y->fyp)
		fy_parser_destroy(y->fyp);
	if (y->fydiag)
		fy_diag_destroy(y->fydiag);
	free(y->sets);
	memset(y, 0, sizeof *y);
}

/* ---- navigation --------------------------------------------------------------------------------- */

void yamldoc_root(struct yamldoc *y, struct yamldoc_ref *out)
{
	memset(out, 0, sizeof *out);
	out->node = y->fyd ? fy_document_root(y->fyd) : NULL;
}

/* out->path = up->path "." name (len bytes), cut to fit. */
static void child_path(const struct yamldoc_ref *up, const char *name, size_t len,
		       struct yamldoc_ref *out)
{
	size_t o = strlen(up->path), max = sizeof out->path - 1;

	memcpy(out->path, up->path, o);
	if (o > 0 && o < max)
		out->path[o++] = '.';
	if (len > max - o)
		len = max - o;
	memcpy(out->path + o, name, len);
	out->path[o + len] = '\0';
}

/* The text of a key (NULL for a key that is not a scalar), with its length. */
static const char *key_text(struct fy_node *key, size_t *len)
{
	*len = 0;
	return key && fy_node_is_scalar(key) ? fy_node_get_scalar(key, len) : NULL;
}

/* The pair of map whose key is the len bytes at name, or NULL. */
static struct fy_node_pair *find_pair(struct fy_node *map, const char *name, size_t len)
{
	void *it = NULL;
	struct fy_node_pair *p;
	const char *s;
	size_t n;

	while (map && (p = fy_node_mapping_iterate(map, &it))) {
		s = key_text(fy_node_pair_key(p), &n);
		if (s && n == len && memcmp(s, name, len) == 0)
			return p;
	}
	return NULL;
}

void yamldoc_child(const struct yamldoc_ref *map, const char *key,
			 struct yamldoc_ref *out)
{
	struct fy_node_pair *p = find_pair(map->node, key, strlen(key));

	memset(out, 0, sizeof *out);
	out->up = map;
	out->key = p ? fy_node_pair_key(p) : NULL;
	out->node = p ? fy_node_pair_value(p) : NULL;
	child_path(map, key, strlen(key), out);
}

/* out names pair p of map (NULL: an empty ref), *name its key's text ("?" when the key is not a scalar). */
static void pair_ref(const struct yamldoc_ref *map, struct fy_node_pair *p, struct yamldoc_ref *out,
		     const char **name)
{
	memset(out, 0, sizeof *out);
	out->up = map;
	out->key = fy_node_pair_key(p);
	out->node = fy_node_pair_value(p);
	*name = out->key && fy_node_is_scalar(out->key) ? fy_node_get_scalar0(out->key) : NULL;
	if (!*name)
		*name = "?";
	child_path(map, *name, strlen(*name), out);
}

void yamldoc_pair(const struct yamldoc_ref *map, int i, struct yamldoc_ref *out,
			const char **name)
{
	pair_ref(map, fy_node_mapping_get_by_index(map->node, i), out, name);
}

/* out names node n, item i of seq. */
static void item_ref(const struct yamldoc_ref *seq, struct fy_node *n, int i, struct yamldoc_ref *out)
{
	char index[16];

	memset(out, 0, sizeof *out);
	out->up = seq;
	out->node = n;
	snprintf(index, sizeof index, "%d", i);
	child_path(seq, index, strlen(index), out);
}

void yamldoc_item(const struct yamldoc_ref *seq, int i, struct yamldoc_ref *out)
{
	item_ref(seq, fy_node_sequence_get_by_index(seq->node, i), i, out);
}

/* libfyaml's iterators take the item or pair they returned last as their cursor: O(1) a step. */
bool yamldoc_next_item(const struct yamldoc_ref *seq, struct yamldoc_walk *w,
			     struct yamldoc_ref *out)
{
	struct fy_node *n = fy_node_is_sequence(seq->node) ? fy_node_sequence_iterate(seq->node, &w->at) : NULL;

	if (!n)
		return false;
	item_ref(seq, n, ++w->i, out);
	return true;
}

bool yamldoc_next_pair(const struct yamldoc_ref *map, struct yamldoc_walk *w,
			     struct yamldoc_ref *out, const char **name)
{
	struct fy_node_pair *p = fy_node_is_mapping(map->node) ? fy_node_mapping_iterate(map->node, &w->at) : NULL;

	if (!p)
		return false;
	w->i++;
	pair_ref(map, p, out, name);
	return true;
}

/* ---- structure ---------------------------------------------------------------------------------- */

/* Join names with ", " into buf. */
static const char *join(const char *const *names, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; names[i] && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

static int unknown_key(struct yamldoc *y, const struct yamldoc_ref *map, struct fy_node *key,
		       const char *const *keys)
{
	struct yamldoc_ref k = { key, NULL, map, "" };
	char list[512], got[GOT_BUF];

	snprintf(k.path, sizeof k.path, "%s", map->path);
	describe(key, got, sizeof got);
	join(keys, list, sizeof list);
	return yamldoc_fail(y, &k, "unknown key %s%s; expected one of: %s", got,
				  map->path[0] ? "" : " at top level", list);
}

/* True if name (len bytes) is one of keys. */
static bool known(const char *name, size_t len, const char *const *keys)
{
	for (int i = 0; keys[i]; i++)
		if (strlen(keys[i]) == len && memcmp(keys[i], name, len) == 0)
			return true;
	return false;
}

int yamldoc_mapping(struct yamldoc *y, const struct yamldoc_ref *r,
			  const char *const *keys, const char *what, int *npairs)
{
	char list[512], desc[600], got[GOT_BUF];
	void *it = NULL;
	struct fy_node_pair *p;
	const char *name;
	size_t len;

	if (npairs)
		*npairs = 0;
	if (!r->node)
		return STATUS_OK;
	if (!fy_node_is_mapping(r->node)) {
		if (!what)
			snprintf(desc, sizeof desc, "a mapping with keys %s", join(keys, list, sizeof list));
		return yamldoc_fail(y, r, "expected %s, got %s", what ? what : desc,
					  describe(r->node, got, sizeof got));
	}
	while ((p = fy_node_mapping_iterate(r->node, &it))) {
		struct yamldoc_ref k = { fy_node_pair_key(p), NULL, r, "" };

		name = key_text(k.node, &len);
		if (!name || len == 0 || memchr(name, '\0', len) || fy_node_get_style(k.node) == FYNS_ALIAS) {
			snprintf(k.path, sizeof k.path, "%s", r->path);
			return yamldoc_fail(y, &k, "expected a key name, got %s",
						  describe(k.node, got, sizeof got));
		}
		if (keys && !known(name, len, keys))
			return unknown_key(y, r, k.node, keys);
	}
	if (npairs)
		*npairs = fy_node_mapping_item_count(r->node);
	return STATUS_OK;
}

int yamldoc_list(struct yamldoc *y, const struct yamldoc_ref *r, int min, int max,
		       const char *items, int *n)
{
	char got[GOT_BUF], range[48];
	int count;

	*n = 0;
	if (min == max)
		snprintf(range, sizeof range, "exactly %d", min);
	else
		snprintf(range, sizeof range, "%d to %d", min, max);
	if (!fy_node_is_sequence(r->node))
		return yamldoc_fail(y, r, "expected a list of %s %s, got %s", range, items,
					  describe(r->node, got, sizeof got));
	count = fy_node_sequence_item_count(r->node);
	if (count == 0)
		snprintf(got, sizeof got, "an empty list");
	else
		snprintf(got, sizeof got, "%d entries", count);
	if (count < min || count > max)
		return yamldoc_fail(y, r, "expected a list of %s %s, got %s", range, items, got);
	*n = count;
	return STATUS_OK;
}

int yamldoc_missing(struct yamldoc *y, const struct yamldoc_ref *map, const char *key,
			  const char *what)
{
	return yamldoc_fail(y, map, "missing required key '%s' (%s)", key, what);
}

/* ---- scalars ------------------------------------------------------------------------------------ */

int yamldoc_scalar(struct yamldoc *y, const struct yamldoc_ref *r, const char *expect,
			 const char **text)
{
	char got[GOT_BUF];

	if (!fy_node_is_scalar(r->node) || fy_node_get_style(r->node) == FYNS_ALIAS)
		return yamldoc_fail(y, r, "expected a scalar (%s), got %s", expect,
					  describe(r->node, got, sizeof got));
	*text = fy_node_get_scalar0(r->node);
	if (!*text)
		return nomem(y);
	if (strlen(*text) != fy_node_get_scalar_length(r->node))
		return yamldoc_fail(y, r, "expected %s, got text with a NUL character", expect);
	return STATUS_OK;
}

int yamldoc_bad(struct yamldoc *y, const struct yamldoc_ref *r, const char *expect)
{
	char got[GOT_BUF];

	return yamldoc_fail(y, r, "expected %s, got %s", expect, describe(r->node, got, sizeof got));
}

/* Optional '-', then decimal digits only, within int64 (no '+', spaces, '_', hex, fraction or exponent). */
static bool parse_int(const char *s, int64_t *v)
{
	const char *p = s + (*s == '-');
	long long x;

	if (!*p)
		return false;
	for (; *p; p++)
		if (!is_digit(*p))
			return false;
	errno = 0;
	x = strtoll(s, NULL, 10);
	if (errno == ERANGE)
		return false;
	*v = x;
	return true;
}

int yamldoc_int(struct yamldoc *y, const struct yamldoc_ref *r, int64_t lo, int64_t hi,
		      int64_t *out)
{
	char expect[96];
	const char *s;
	int64_t v;
	int rc;

	if (!r->node)
		return STATUS_OK;
	snprintf(expect, sizeof expect, "an integer from %lld to %lld", (long long)lo, (long long)hi);
	if ((rc = yamldoc_scalar(y, r, expect, &s)))
		return rc;
	if (!parse_int(s, &v) || v < lo || v > hi)
		return yamldoc_bad(y, r, expect);
	*out = v;
	return STATUS_OK;
}

/* A bound as a reader would write it: integers in full (10000000, not 1e+07). */
static void format_bound(double v, char *buf, size_t size)
{
	if (fabs(v) < 1e15 && v == floor(v))
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%g", v);
}

/* A number strtod reads in full, written only with digits, sign, point and exponent (no hex, no inf). */
static bool parse_number(const char *s, double *v)
{
	char *end;

	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return *end == '\0' && end != s && isfinite(*v);
}

int yamldoc_number(struct yamldoc *y, const struct yamldoc_ref *r,
			 const struct yamldoc_bounds *b, double *out)
{
	char expect[128], lo[32], hi[32];
	const char *s;
	double v;
	int rc;

	if (!r->node)
		return STATUS_OK;
	format_bound(b->lo, lo, sizeof lo);
	format_bound(b->hi, hi, sizeof hi);
	if (isinf(b->hi))
		snprintf(expect, sizeof expect, "a number %s %s", b->lo_open ? ">" : ">=", lo);
	else
		snprintf(expect, sizeof expect, "a number %s %s and %s %s", b->lo_open ? ">" : ">=", lo,
			 b->hi_open ? "<" : "<=", hi);
	if ((rc = yamldoc_scalar(y, r, expect, &s)))
		return rc;
	if (!parse_number(s, &v) || v < b->lo || (b->lo_open && v == b->lo) || v > b->hi ||
	    (b->hi_open && v == b->hi))
		return yamldoc_bad(y, r, expect);
	*out = v;
	return STATUS_OK;
}

int yamldoc_string(struct yamldoc *y, const struct yamldoc_ref *r, char *buf,
			 size_t size)
{
	char expect[96];
	const char *s;
	size_t len;
	int rc;

	if (!r->node)
		return STATUS_OK;
	snprintf(expect, sizeof expect, "a non-empty string of at most %zu bytes", size - 1);
	if ((rc = yamldoc_scalar(y, r, expect, &s)))
		return rc;
	len = strlen(s);
	if (len == 0)
		return yamldoc_bad(y, r, expect);
	if (len >= size)
		return yamldoc_fail(y, r, "expected %s, got %zu bytes", expect, len);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
			return yamldoc_bad(y, r, "a string without control characters");
	memcpy(buf, s, len + 1);
	return STATUS_OK;
}

int yamldoc_choice(struct yamldoc *y, const struct yamldoc_ref *r,
			 const char *const *names, int n, int *out)
{
	char expect[256] = "";
	size_t o = 0;
	const char *s;
	int rc;

	if (!r->node)
		return STATUS_OK;
	for (int i = 0; i < n && o < sizeof expect; i++)  /* "a, b or c" */
		o += (size_t)snprintf(expect + o, sizeof expect - o, "%s%s",
				      i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
	if ((rc = yamldoc_scalar(y, r, expect, &s)))
		return rc;
	for (int i = 0; i < n; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return STATUS_OK;
		}
	}
	return yamldoc_bad(y, r, expect);
}

/* ---- --set overrides ---------------------------------------------------------------------------- */

/* A --set path split at its dots: component i is text[start[i] .. start[i] + len[i]). */
struct parts {
	const char *text;
	int n;
	size_t start[SET_PARTS_MAX];
	size_t len[SET_PARTS_MAX];
};

/* Length of components i..k joined by their dots. */
static size_t span(const struct parts *c, int i, int k)
{
	return c->start[k] + c->len[k] - c->start[i];
}

static int set_fail(struct yamldoc *y, const struct yamldoc_set *s, const struct parts *c,
		    int k, const char *msg)
{
	return diag_fail(y->d, STATUS_EINPUT, "--set %s: %.*s: %s", s->text, (int)span(c, 0, k), c->text,
			 msg);
}

/* Split "a.b.c" (len bytes of text); false on an empty component or too many of them. */
static bool split_path(const char *text, size_t len, struct parts *c)
{
	size_t from = 0;

	c->text = text;
	c->n = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '.')
			continue;
		if (i == from || c->n == SET_PARTS_MAX)
			return false;
		c->start[c->n] = from;
		c->len[c->n++] = i - from;
		from = i + 1;
	}
	return true;
}

bool yamldoc_set_key(const char *key, char *canon, size_t size)
{
	struct parts c;
	size_t o = 0;
	int64_t idx;
	char part[24];
	int w;

	if (!split_path(key, strlen(key), &c))
		return false;
	for (int i = 0; i < c.n; i++) {
		/* as index_item() reads a component: parse_int, and an index is >= 0 */
		snprintf(part, sizeof part, "%.*s", (int)c.len[i], c.text + c.start[i]);
		if (c.len[i] < sizeof part && parse_int(part, &idx) && idx >= 0)
			w = snprintf(canon + o, size - o, "%s%lld", i ? "." : "", (long long)idx);
		else
			w = snprintf(canon + o, size - o, "%s%.*s", i ? "." : "", (int)c.len[i], c.text + c.start[i]);
		if (w < 0 || (size_t)w >= size - o)
			return false;
		o += (size_t)w;
	}
	return true;
}

/* The pair of map whose key is the longest run of components from i; *k is the last component used. */
static struct fy_node_pair *longest_key(struct fy_node *map, const struct parts *c, int i, int *k)
{
	struct fy_node_pair *p;

	for (*k = c->n - 1; *k >= i; (*k)--)
		if ((p = find_pair(map, c->text + c->start[i], span(c, i, *k))))
			return p;
	return NULL;
}

/* A new node owned by the document, marked as made by override s; NULL when out of memory. */
static struct fy_node *new_node(struct yamldoc *y, struct yamldoc_set *s, const char *text,
				size_t len)
{
	struct fy_node *n = text ? fy_node_create_scalar_copy(y->fyd, text, len)
				 : fy_node_create_mapping(y->fyd);

	if (n && fy_node_set_meta(n, s) != 0) {
		fy_node_free(n);
		n = NULL;
	}
	return n;
}

/* Append key -> value (both new) to map, or free both. */
static int append_pair(struct yamldoc *y, struct fy_node *map, struct fy_node *key,
		       struct fy_node *value)
{
	if (key && value && fy_node_mapping_append(map, key, value) == 0)
		return STATUS_OK;
	fy_node_free(key);
	fy_node_free(value);
	return nomem(y);
}

/* True if components 0..i-1 spell dotted_map, whose keys may contain dots. */
static bool in_dotted(const struct parts *c, int i, const char *dotted_map)
{
	return dotted_map && i > 0 && span(c, 0, i - 1) == strlen(dotted_map) &&
	       memcmp(c->text, dotted_map, strlen(dotted_map)) == 0;
}

/* Create components i.. under map (none of them exists): mappings down to the last, then the value. */
static int add_path(struct yamldoc *y, struct yamldoc_set *s, struct fy_node *map,
		    const struct parts *c, int i, const char *value, const char *dotted_map)
{
	struct fy_node *m;
	int k, rc;

	while (i < c->n - 1) {
		k = in_dotted(c, i, dotted_map) ? c->n - 2 : i;
		m = new_node(y, s, NULL, 0);
		if ((rc = append_pair(y, map, new_node(y, s, c->text + c->start[i], span(c, i, k)), m)))
			return rc;
		map = m;
		i = k + 1;
	}
	return append_pair(y, map, new_node(y, s, c->text + c->start[i], c->len[i]),
			   new_node(y, s, value, strlen(value)));
}

/* The value of pair p, a scalar or empty, becomes a new scalar. */
static int replace(struct yamldoc *y, struct yamldoc_set *s, const struct parts *c, int k,
		   struct fy_node_pair *p, const char *value)
{
	struct fy_node *old = fy_node_pair_value(p), *n;

	if (old && !fy_node_is_scalar(old))
		return set_fail(y, s, c, k, fy_node_is_mapping(old)
				? "is not a scalar (it is a mapping); expected KEY.PATH of a single value"
				: "is not a scalar (it is a list); expected KEY.PATH of a single value");
	n = new_node(y, s, value, strlen(value));
	if (!n || fy_node_pair_set_value(p, n) != 0) {
		fy_node_free(n);
		return nomem(y);
	}
	return STATUS_OK;
}

/* Step from sequence *cur into the item that component i indexes; fail if it does not exist. */
static int index_item(struct yamldoc *y, const struct yamldoc_set *s, const struct parts *c,
		      int i, struct fy_node **cur)
{
	char msg[96];
	int64_t idx;
	char part[24];
	int n = fy_node_sequence_item_count(*cur);

	snprintf(part, sizeof part, "%.*s", (int)c->len[i], c->text + c->start[i]);
	if (c->len[i] < sizeof part && parse_int(part, &idx) && idx >= 0 && idx < n) {
		*cur = fy_node_sequence_get_by_index(*cur, (int)idx);
		return STATUS_OK;
	}
	if (n == 0)
		snprintf(msg, sizeof msg, "no such entry; the list is empty");
	else
		snprintf(msg, sizeof msg, "no such entry; expected an index from 0 to %d", n - 1);
	return set_fail(y, s, c, i, msg);
}

static int apply_one(struct yamldoc *y, struct yamldoc_set *s, const char *dotted_map)
{
	const char *eq = strchr(s->text, '=');
	struct fy_node *cur;
	struct fy_node_pair *p;
	struct parts c;
	int i = 0, k, rc;

	if (!eq || !split_path(s->text, (size_t)(eq - s->text), &c))
		return diag_fail(y->d, STATUS_EINPUT, "--set %s: expected KEY.PATH=VALUE", s->text);
	cur = fy_document_root(y->fyd);
	while (i < c.n) {
		if (fy_node_is_mapping(cur)) {
			p = longest_key(cur, &c, i, &k);
			if (!p)
				return add_path(y, s, cur, &c, i, eq + 1, dotted_map);
			if (k == c.n - 1)
				return replace(y, s, &c, k, p, eq + 1);
			cur = fy_node_pair_value(p);
			i = k + 1;
		} else if (cur && fy_node_is_sequence(cur) && i < c.n - 1) {
			if ((rc = index_item(y, s, &c, i++, &cur)))
				return rc;
		} else if (cur && fy_node_is_sequence(cur)) {  /* no list in a scenario holds scalars */
			return set_fail(y, s, &c, i, "is not a scalar (it is a list entry); expected KEY.PATH "
					"of a single value");
		} else {
			return set_fail(y, s, &c, i - 1, "is a single value, not a mapping or a list");
		}
	}
	return STATUS_OK;
}

/* The setting of override text "KEY=VALUE" into canon (yamldoc_set_key); false if it is malformed. */
static bool set_setting(const char *text, char *canon, size_t size)
{
	const char *eq = strchr(text, '=');
	char key[YAMLDOC_PATH_MAX];

	if (!eq || (size_t)(eq - text) >= sizeof key)
		return false;
	memcpy(key, text, (size_t)(eq - text));
	key[eq - text] = '\0';
	return yamldoc_set_key(key, canon, size);
}

/*
 * Refuse two overrides that name one setting, however written ("fleet.0.count" and "fleet.00.count"): the
 * later would silently replace the earlier. O(n^2) in the overrides, which are a few (a command line's, or a
 * sweep point's). A malformed one is left to apply_one's message.
 */
static int check_twice(struct yamldoc *y, const char *const *sets, int nsets)
{
	char a[YAMLDOC_PATH_MAX], b[YAMLDOC_PATH_MAX];

	for (int j = 1; j < nsets; j++) {
		if (!set_setting(sets[j], b, sizeof b))
			continue;
		for (int i = 0; i < j; i++)
			if (set_setting(sets[i], a, sizeof a) && strcmp(a, b) == 0)
				return diag_fail(y->d, STATUS_EINPUT, "--set %s: %s is already set by --set %s; expected "
						 "each key once", sets[j], b, sets[i]);
	}
	return STATUS_OK;
}

int yamldoc_apply_sets(struct yamldoc *y, const char *const *sets, int nsets,
			     const char *dotted_map)
{
	int rc;

	if (nsets <= 0)
		return STATUS_OK;
	if ((rc = check_twice(y, sets, nsets)))
		return rc;
	y->sets = calloc((size_t)nsets, sizeof *y->sets);
	if (!y->sets)
		return nomem(y);
	y->nsets = nsets;
	for (int i = 0; i < nsets; i++) {
		y->sets[i].text = sets[i];
		if ((rc = apply_one(y, &y->sets[i], dotted_map)))
			return rc;
	}
	return STATUS_OK;
}
