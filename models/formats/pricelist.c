/*
 * pricelist: a vendor's price list read into rows (see pricelist.h). This file reads the text, checks that
 * it is a JSON mapping (gcp_skus: or a list) and hands its root to the format's reader (pricelist_aws.c,
 * pricelist_azure.c, pricelist_gcp.c).
 */
#include "pricelist.h"

#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "pricejson.h"
#include "status.h"
#include "textfile.h"

#define FILE_BYTES_MAX (256u << 20)  /* a whole-region get-products dump is tens of MB */

static const char *const format_names[PRICELIST_FORMATS] = { "aws_price_list", "aws_capacity_blocks",
							     "azure_retail", "gcp_skus" };

const char *pricelist_format_name(enum pricelist_format f)
{
	return (unsigned)f < PRICELIST_FORMATS ? format_names[f] : "?";
}

/* Are the len bytes of text (not NUL-terminated) all white space? */
static bool blank(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]) || text[i] == '\0')
			return false;
	return true;
}

static int parse(struct pricelist *pl, const char *text, size_t len, const char *label, enum pricelist_format f,
		 const char *region, const struct pricelist_machine *machines, int nmachines, struct diag *d)
{
	static int (*const readers[PRICELIST_FORMATS])(struct pricejson *, struct fy_node *) = {
		pricelist_aws_read, pricelist_aws_blocks_read, pricelist_azure_read, pricelist_gcp_read };
	struct pricejson c = { .label = label, .d = d, .region = region, .pl = pl, .machines = machines,
			       .nmachines = nmachines };
	struct fy_node *root;
	struct jsondoc j;
	int rc, line;

	memset(pl, 0, sizeof *pl);
	if ((unsigned)f >= PRICELIST_FORMATS)
		return diag_at(d, STATUS_EINPUT, label, 0, 0, "unknown price list format");
	if ((line = jsondoc_bad_text_line((const unsigned char *)text, len)))
		return diag_at(d, STATUS_EINPUT, label, line, 0, "a NUL byte or bytes that are not UTF-8; "
			       "expected a JSON text file");
	if (blank(text, len))
		return diag_at(d, STATUS_EINPUT, label, 1, 0, "the file is empty; expected %s JSON",
			       format_names[f]);
	if ((rc = jsondoc_load(&j, text, len, label, "the price list", d)))
		return rc;
	root = fy_document_root(j.fyd);
	if (!fy_node_is_mapping(root) && !(f == PRICELIST_GCP && fy_node_is_sequence(root)))
		rc = pricejson_fail(&c, root, NULL, "", "expected a JSON object at top level (%s%s)", format_names[f],
				    f == PRICELIST_GCP ? ", or the list gcloud prints" : "");
	else
		rc = readers[f](&c, root);
	jsondoc_fini(&j);
	if (rc)
		pricelist_fini(pl);
	return rc;
}

int pricelist_parse(struct pricelist *pl, const char *text, size_t len, const char *label,
		    enum pricelist_format f, const char *region, struct diag *d)
{
	return parse(pl, text, len, label, f, region, NULL, 0, d);
}

static int load(struct pricelist *pl, const char *path, const char *label, enum pricelist_format f,
		const char *region, const struct pricelist_machine *machines, int nmachines, struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(pl, 0, sizeof *pl);
	if (!label)
		label = path;
	if ((rc = textfile_read(path, FILE_BYTES_MAX, "a price list (JSON)", &text, &len, d)))
		return rc;
	rc = parse(pl, text, len, label, f, region, machines, nmachines, d);
	free(text);
	return rc;
}

int pricelist_load(struct pricelist *pl, const char *path, const char *label, enum pricelist_format f,
		   const char *region, struct diag *d)
{
	return load(pl, path, label, f, region, NULL, 0, d);
}

int pricelist_load_gcp(struct pricelist *pl, const char *path, const char *label, const char *region,
		       const struct pricelist_machine *machines, int n, struct diag *d)
{
	return load(pl, path, label, PRICELIST_GCP, region, machines, n, d);
}

const struct pricelist_row *pricelist_find(const struct pricelist *pl, const char *type, enum pricelist_kind kind,
					   int term_years, enum pricelist_payment payment, bool convertible)
{
	const struct pricelist_row *best = NULL;

	for (int i = 0; i < pl->n; i++) {
		const struct pricelist_row *r = &pl->rows[i];

		if (r->kind != kind || strcmp(r->type, type) != 0)
			continue;
		if (kind == PRICELIST_RESERVED &&
		    (r->term_years != term_years || r->payment != payment || r->convertible != convertible))
			continue;
		if (kind != PRICELIST_BLOCK)
			return r;
		if (!best || r->usd_per_h < best->usd_per_h)
			best = r;
	}
	return best;
}

void pricelist_fini(struct pricelist *pl)
{
	if (!pl)
		return;
	free(pl->rows);
	memset(pl, 0, sizeof *pl);
}
