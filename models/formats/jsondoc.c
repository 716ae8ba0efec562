/*
 * jsondoc: a JSON document parsed by libfyaml (see jsondoc.h).
 *
 * libfyaml reports through a diagnostic object. Ours collects errors (so the first can be reported with its
 * position) and routes any other output to capture_output(), which keeps its first line: nothing is
 * printed, and a failure the parser did not collect still gets libfyaml's own words.
 */
#include "jsondoc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

#define QUOTE_MAX 48  /* bytes of a bad value quoted back in a message */

static void capture_output(struct fy_diag *fyd, void *user, const char *buf, size_t len)
{
	struct jsondoc *j = user;
	size_t n = strcspn(buf, "\n");

	(void)fyd;
	if (!j->libmsg[0])
		snprintf(j->libmsg, sizeof j->libmsg, "%.*s", (int)(n < len ? n : len), buf);
}

/* Parse into *j (zeroed by the caller); on failure *j may hold part of what it needs freed. */
static int parse(struct jsondoc *j, const char *text, size_t len, const char *label, const char *what,
		 struct diag *d)
{
	struct fy_diag_cfg dcfg;
	struct fy_parse_cfg pcfg = { .flags = FYPCF_QUIET | FYPCF_JSON_FORCE };
	struct fy_diag_error *e;
	void *it = NULL;

	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = capture_output;
	dcfg.user = j;
	dcfg.level = FYET_ERROR;
	dcfg.colorize = false;
	if (!(j->diag = fy_diag_create(&dcfg)))
		goto out_nomem;
	fy_diag_set_collect_errors(j->diag, true);
	pcfg.diag = j->diag;
	if (!(j->fyp = fy_parser_create(&pcfg)) || fy_parser_set_string(j->fyp, text, len) != 0)
		goto out_nomem;
	j->fyd = fy_parse_load_document(j->fyp);
	while ((e = fy_diag_errors_iterate(j->diag, &it)))
		if (e->type >= FYET_ERROR)
			return diag_at(d, STATUS_EINPUT, label, e->line, e->column, "invalid JSON: %s",
				       e->msg);
	if (!j->fyd || fy_diag_got_error(j->diag) || j->libmsg[0])
		return diag_at(d, STATUS_EINPUT, label, 1, 0, "invalid JSON: %s",
			       j->libmsg[0] ? j->libmsg : "the parser gave no detail");
	return STATUS_OK;
out_nomem:
	return diag_at(d, STATUS_ENOMEM, label, 0, 0, "out of memory while reading %s", what);
}

int jsondoc_load(struct jsondoc *j, const char *text, size_t len, const char *label, const char *what,
		 struct diag *d)
{
	int rc;

	memset(j, 0, sizeof *j);
	rc = parse(j, text, len, label, what, d);
	if (rc)
		jsondoc_fini(j);  /* the message is already formatted into d */
	return rc;
}

void jsondoc_fini(struct jsondoc *j)
{
	if (!j)
		return;
	if (j->fyd)
		fy_parse_document_destroy(j->fyp, j->fyd);
	if (j->fyp)
		fy_parser_destroy(j->fyp);
	if (j->diag)
		fy_diag_destroy(j->diag);
	memset(j, 0, sizeof *j);
}

bool jsondoc_node_pos(struct fy_node *n, int *line, int *col)
{
	void *it = NULL;
	struct fy_node_pair *p;
	const struct fy_mark *m;

	if (n && fy_node_is_scalar(n)) {
		m = fy_node_get_scalar_token(n) ? fy_token_start_mark(fy_node_get_scalar_token(n)) : NULL;
		if (m) {  /* libfyaml counts from 0 */
			*line = m->line + 1;
			*col = m->column + 1;
		}
		return m != NULL;
	}
	if (n && fy_node_is_mapping(n))
		return (p = fy_node_mapping_iterate(n, &it)) &&
		       jsondoc_node_pos(fy_node_pair_key(p), line, col);
	return n && fy_node_is_sequence(n) &&
	       jsondoc_node_pos(fy_node_sequence_iterate(n, &it), line, col);
}

bool jsondoc_number(struct fy_node *n, double *v)
{
	const char *s = fy_node_is_scalar(n) ? fy_node_get_scalar0(n) : NULL;
	char *end;
	double x;

	if (!s || fy_node_get_style(n) != FYNS_PLAIN || !*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return false;
	x = strtod(s, &end);
	if (*end != '\0' || !isfinite(x))
		return false;
	*v = x;
	return true;
}

/* The line of the first NUL or non-UTF-8 byte of text, or 0 when it is all UTF-8 text. */
int jsondoc_bad_text_line(const unsigned char *s, size_t len)
{
	int line = 1, need = 0;
	unsigned char lo = 0x80, hi = 0xBF;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (need > 0) {  /* a continuation byte, in a range that excludes overlongs and surrogates */
			if (c < lo || c > hi)
				return line;
			lo = 0x80;
			hi = 0xBF;
			need--;
		} else if (c >= 0xC2 && c <= 0xF4) {
			need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
			lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
			hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
		} else if (c == 0 || c >= 0x80) {
			return line;
		}
		line += c == '\n';
	}
	return need > 0 ? line : 0;
}

const char *jsondoc_describe(struct fy_node *n, char *buf, size_t size)
{
	const char *s = n ? fy_node_get_scalar0(n) : NULL;

	if (fy_node_is_mapping(n))
		return "a mapping";
	if (fy_node_is_sequence(n))
		return "a list";
	if (!s)
		return "nothing";
	snprintf(buf, size, fy_node_get_style(n) == FYNS_PLAIN ? "%.*s%s" : "the string '%.*s%s'", QUOTE_MAX,
		 s, strlen(s) > QUOTE_MAX ? "..." : "");
	return buf;
}

int jsondoc_fail(struct diag *d, const char *label, struct fy_node *n, struct fy_node *near,
		 const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	int line = 0, col = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!jsondoc_node_pos(n, &line, &col) && !jsondoc_node_pos(near, &line, &col))
		line = 1;
	return diag_at(d, STATUS_EINPUT, label, line, col, "%s", msg);
}
