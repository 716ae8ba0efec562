/*
 * scenario_prices: the scenario's `prices:` list, vendors' price lists read into the catalogue (part of the
 * loader, scenario_load.h; models/README.md, "Price lists"):
 *
 *   region: eu-west-1
 *   prices:
 *     - {file: p5-eu-west-1.json, format: aws_price_list}            # aws pricing get-products
 *     - {file: blocks.json, format: aws_capacity_blocks}             # aws ec2 describe-capacity-block-offerings
 *     - {file: nd-h100.json, format: azure_retail, region: eastus}   # Azure Retail Prices API
 *     - {file: gce-skus.json, format: gcp_skus, region: us-central1} # gcloud billing skus list
 *       # machines: {a2-ultragpu-8g: {gpu: "Nvidia Tesla A100 80GB GPU", gpus: 8, core: "A2 Instance Core",
 *       #            vcpus: 96, ram: "A2 Instance Ram", memory_gib: 1360}}  # shapes beside the built-in
 *
 * Each file is read (models/formats/pricelist.h) for its `region`: the entry's own, else the scenario's
 * `region`, else the format's provider's default region (us-east-1, eastus, us-central1). A type the files price takes
 * their prices in place of the built-in catalogue's, entry after entry (a later file wins for what it gives):
 * the On-Demand rate; each reserved (term, payment) offer of the entry's `offering_class` (standard, the
 * default, or convertible; aws_price_list only) as the hourly fee and the upfront fee a `reserved` entry of
 * that term and payment pays (its effective rate, hourly + upfront / term hours, is the option's,
 * option_reserved.c); the 1- and 3-year discounts recomputed from those offers, 1 - effective / On-Demand,
 * from the no-upfront offer (else the partial, else the all-upfront one) for what still reads a discount
 * (a reservation of a payment the file lacks, the type's reserved rate); and the Capacity Block rate (the
 * cheapest offering of the type). The scenario's catalog: keys and a fleet entry's own price keys still
 * override these. Every priced type gets a note in the run's warnings naming the files, regions and
 * publication date, so the summary and the report say where its prices came from; a type without one has
 * the built-in catalogue's prices (`gpucap catalog` gives their date and source). A file that prices none of
 * the scenario's types (the serving type and serving.types) is an error at its entry: it was fetched for
 * other types or another region, and its prices would silently not apply.
 */
#include <stdio.h>
#include <string.h>

#include "provider.h"
#include "scenario_load.h"
#include "status.h"

/* ri[term][payment] is indexed by enum payment_kind with the price list's payments */
_Static_assert((int)PRICELIST_NO_UPFRONT == (int)PAYMENT_NO_UPFRONT &&
	       (int)PRICELIST_PARTIAL_UPFRONT == (int)PAYMENT_PARTIAL_UPFRONT &&
	       (int)PRICELIST_ALL_UPFRONT == (int)PAYMENT_ALL_UPFRONT, "payment orders differ");

static const char *const price_keys[] = { "file", "format", "region", "offering_class", "machines", NULL };
static const struct yamldoc_bounds gib = { 0, 1e6, true, false };  /* memory_gib: (0, 1e6] */
static const char *const machine_keys[] = { "gpu", "gpus", "core", "vcpus", "ram", "memory_gib", NULL };
static const char *const format_names[] = { "aws_price_list", "aws_capacity_blocks", "azure_retail",
					    "gcp_skus" };
static const char *const class_names[] = { "standard", "convertible" };

/* The default region of a format: its provider's. */
static const char *default_region(struct load *l, enum pricelist_format f)
{
	struct yamldoc_ref r;
	const char *text;

	yamldoc_child(&l->root, "region", &r);
	if (r.node && yamldoc_scalar(&l->y, &r, "a region", &text) == STATUS_OK)
		return text;
	return provider_default_region(f == PRICELIST_AZURE ? PROVIDER_AZURE : f == PRICELIST_GCP ? PROVIDER_GCP
				       : PROVIDER_AWS);
}

/* One `machines` entry: the three SKU description starts and the counts. */
static int read_machine(struct load *l, const struct yamldoc_ref *m, struct pricelist_machine *out)
{
	struct yamldoc_ref r;
	int gpus, vcpus, rc;
	static const char *const what[] = { "the start of the GPU SKU's description, as \"Nvidia H100 80GB GPU\"",
					    "the start of the vCPU SKU's description, as \"A3 Instance Core\"",
					    "the start of the memory SKU's description, as \"A3 Instance Ram\"" };

	if ((rc = yamldoc_mapping(&l->y, m, machine_keys, NULL, NULL)))
		return rc;
	for (int k = 0; k < 3; k++)
		if ((rc = scenario_load_required(l, m, machine_keys[2 * k], what[k], &r)) ||
		    (rc = yamldoc_string(&l->y, &r, out->part[k], sizeof out->part[k])))
			return rc;
	if ((rc = scenario_load_required(l, m, "gpus", "the machine's GPU count", &r)) ||
	    (rc = scenario_load_int(l, &r, 1, 64, &gpus)) ||
	    (rc = scenario_load_required(l, m, "vcpus", "the machine's vCPU count", &r)) ||
	    (rc = scenario_load_int(l, &r, 1, 4096, &vcpus)) ||
	    (rc = scenario_load_required(l, m, "memory_gib", "the machine's memory in GiB", &r)) ||
	    (rc = yamldoc_number(&l->y, &r, scenario_load_machine_gib, &out->count[2])))
		return rc;
	out->count[0] = gpus;
	out->count[1] = vcpus;
	return STATUS_OK;
}

/* An entry's `machines` (gcp_skus only). */
static int read_machines(struct load *l, const struct yamldoc_ref *e, struct load_prices *p)
{
	struct yamldoc_ref map, m;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	const char *name;
	int n, rc;

	yamldoc_child(e, "machines", &map);
	if (!map.node)
		return STATUS_OK;
	if (p->format != PRICELIST_GCP)
		return yamldoc_fail(&l->y, &map, "machines applies to gcp_skus files (a Google Cloud machine is "
				    "priced by its parts); expected no machines here");
	if ((rc = yamldoc_mapping(&l->y, &map, NULL, "a mapping of machine types to {gpu, gpus, core, vcpus, "
				  "ram, memory_gib}", &n)))
		return rc;
	if (n > PRICELIST_MACHINES_MAX)
		return yamldoc_fail(&l->y, &map, "%d machines; expected at most %d", n, PRICELIST_MACHINES_MAX);
	for (int i = 0; i < n; i++) {
		yamldoc_next_pair(&map, &walk, &m, &name);
		snprintf(p->machines[i].type, sizeof p->machines[i].type, "%s", name);
		if (strlen(name) >= sizeof p->machines[i].type)
			return yamldoc_fail(&l->y, &m, "a machine type name of %zu bytes; expected fewer than %d",
					    strlen(name), PRICELIST_NAME_MAX);
		if ((rc = read_machine(l, &m, &p->machines[i])))
			return rc;
		p->nmachines = i + 1;
	}
	return STATUS_OK;
}

static int read_entry(struct load *l, const struct yamldoc_ref *e, struct load_prices *p)
{
	struct yamldoc_ref r;
	char path[SCENARIO_PATH_MAX];
	int format = 0, cls = 0, rc;

	if ((rc = yamldoc_mapping(&l->y, e, price_keys, NULL, NULL)) ||
	    (rc = scenario_load_required(l, e, "format", "aws_price_list, aws_capacity_blocks, azure_retail or "
					 "gcp_skus",
					 &r)) ||
	    (rc = yamldoc_choice(&l->y, &r, format_names, PRICELIST_FORMATS, &format)))
		return rc;
	p->format = (enum pricelist_format)format;
	yamldoc_child(e, "offering_class", &r);
	if (r.node && p->format != PRICELIST_AWS)
		return yamldoc_fail(&l->y, &r, "offering_class applies to aws_price_list files (EC2 reserved "
					  "instances are standard or convertible); expected no offering_class here");
	if ((rc = yamldoc_choice(&l->y, &r, class_names, 2, &cls)))
		return rc;
	p->convertible = cls == 1;
	if ((rc = read_machines(l, e, p)))
		return rc;
	snprintf(p->region, sizeof p->region, "%s", default_region(l, p->format));
	yamldoc_child(e, "region", &r);
	if ((rc = yamldoc_string(&l->y, &r, p->region, sizeof p->region)) ||
	    (rc = scenario_load_required(l, e, "file", "the path of the price list's JSON", &r)) ||
	    (rc = yamldoc_string(&l->y, &r, p->file, sizeof p->file)) ||
	    (rc = scenario_load_path(l, &r, path)))
		return rc;
	p->ref = *e;
	if (p->format == PRICELIST_GCP)
		return pricelist_load_gcp(&p->list, path, NULL, p->region, p->machines, p->nmachines, l->y.d);
	return pricelist_load(&p->list, path, NULL, p->format, p->region, l->y.d);
}

int scenario_load_prices(struct load *l)
{
	struct yamldoc_ref list, e;
	int n, rc;

	if (l->prices_read)
		return STATUS_OK;
	l->prices_read = true;
	yamldoc_child(&l->root, "prices", &list);
	if (!list.node)
		return STATUS_OK;
	if ((rc = yamldoc_list(&l->y, &list, 1, SCENARIO_PRICE_FILES, "entries such as '- {file: prices.json, "
			       "format: aws_price_list}'", &n)))
		return rc;
	struct yamldoc_walk walk = YAMLDOC_WALK_INIT;
	for (int i = 0; i < n; i++) {
		yamldoc_next_item(&list, &walk, &e);
		if ((rc = read_entry(l, &e, &l->prices[i])))
			return rc;
		l->nprices = i + 1;
	}
	return STATUS_OK;
}

/* The reserved offers of one file for type `name` into t; true if there was any. */
static bool apply_reserved(const struct load_prices *p, const char *name, struct instance_type *t)
{
	bool any = false;

	for (int term = 0; term < 2; term++)
		for (int pay = 0; pay < 3; pay++) {
			const struct pricelist_row *r = pricelist_find(&p->list, name, PRICELIST_RESERVED,
								       term ? 3 : 1, (enum pricelist_payment)pay,
								       p->convertible);
			if (!r)
				continue;
			t->ri[term][pay].usd_per_h = r->usd_per_h;
			t->ri[term][pay].upfront_usd = r->upfront_usd;
			t->ri[term][pay].given = true;
			any = true;
		}
	return any;
}

/* 1 - effective / On-Demand of the first payment given for the term (no, partial, all upfront). */
static void reserved_discount(const struct instance_type *t, int term, double *discount)
{
	static const double hours[] = { 8760.0, 26280.0 };  /* 365 and 1095 days (SOURCES.md [ri-terms]) */

	for (int pay = 0; pay < 3; pay++)
		if (t->ri[term][pay].given && t->od_usd_per_h > 0) {
			double e = t->ri[term][pay].usd_per_h + t->ri[term][pay].upfront_usd / hours[term];

			*discount = e < t->od_usd_per_h ? 1.0 - e / t->od_usd_per_h : 0;
			return;
		}
}

void scenario_load_prices_apply(const struct load *l, const char *name, struct instance_type *t)
{
	for (int i = 0; i < l->nprices; i++) {
		const struct load_prices *p = &l->prices[i];
		const struct pricelist_row *od = pricelist_find(&p->list, name, PRICELIST_ON_DEMAND, 0, 0, false);
		const struct pricelist_row *cb = pricelist_find(&p->list, name, PRICELIST_BLOCK, 0, 0, false);
		bool ri = apply_reserved(p, name, t);

		if (od)
			t->od_usd_per_h = od->usd_per_h;
		if (cb)
			t->cb_usd_per_h = cb->usd_per_h;
		if (od || cb || ri)
			t->price_files |= 1u << i;
	}
	if (t->price_files) {
		reserved_discount(t, 0, &t->reserved_discount);
		reserved_discount(t, 1, &t->reserved_3y_discount);
	}
}

int scenario_load_prices_note(struct load *l, const char *name, const struct instance_type *t)
{
	char from[DIAG_MSG_MAX / 2];
	size_t o = 0;
	char od[160] = "";
	int first = 0;
	bool ri = false, cb = false;

	if (!t->price_files)
		return STATUS_OK;
	while (!(t->price_files & (1u << first)))
		first++;
	for (int k = 0; k < 6; k++)
		ri |= t->ri[k / 3][k % 3].given;
	for (int i = 0; i < l->nprices; i++) {
		if (pricelist_find(&l->prices[i].list, name, PRICELIST_ON_DEMAND, 0, 0, false))
			snprintf(od, sizeof od, "On-Demand $%.6g per instance-hour%s", t->od_usd_per_h,
				 l->prices[i].format == PRICELIST_GCP ? " (its GPU, vCPU and memory SKUs summed; "
				 "bundled Local SSD not counted)" : "");
		cb |= pricelist_find(&l->prices[i].list, name, PRICELIST_BLOCK, 0, 0, false) != NULL;
	}
	from[0] = '\0';
	for (int i = 0; i < l->nprices && o < sizeof from; i++) {
		struct load_prices *p = &l->prices[i];

		p->used |= (t->price_files & (1u << i)) != 0;
		if (t->price_files & (1u << i))
			o += (size_t)snprintf(from + o, sizeof from - o, "%s%s %s (region %s%s%s%s)", o ? "; " : "",
					      format_names[p->format], p->file, p->region,
					      p->list.published[0] ? ", published " : "", p->list.published,
					      p->convertible ? ", convertible offers" : "");
	}
	return scenario_load_warn(l, &l->prices[first].ref, "%s is priced from %s: %s%s%s%s%s, not the built-in "
				  "catalogue's", name, from, od, od[0] && ri ? ", " : "",
				  ri ? "reserved terms as listed" : "", (od[0] || ri) && cb ? ", " : "",
				  cb ? "Capacity Block rate as offered" : "");
}

int scenario_load_prices_unused(struct load *l)
{
	char names[SCENARIO_TYPES_MAX * 24];
	size_t o = 0;

	for (int i = 0; i < l->nprices; i++) {
		if (l->prices[i].used)
			continue;
		for (int k = 0; k < l->sc.ntypes && o < sizeof names; k++)
			o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", k ? ", " : "", l->sc.types[k].name);
		return yamldoc_fail(&l->y, &l->prices[i].ref, "%s has no %s price for %s in region %s; expected a "
					  "price list of the scenario's instance types", l->prices[i].file,
					  format_names[l->prices[i].format], names, l->prices[i].region);
	}
	return STATUS_OK;
}

void scenario_load_prices_fini(struct load *l)
{
	for (int i = 0; i < SCENARIO_PRICE_FILES; i++)
		pricelist_fini(&l->prices[i].list);
}

const struct scenario_load_names scenario_load_price_keys = SCENARIO_LOAD_KEYS(price_keys);
const struct scenario_load_names scenario_load_machine_keys = SCENARIO_LOAD_KEYS(machine_keys);
const struct yamldoc_bounds *const scenario_load_machine_gib = &gib;
const struct scenario_load_names scenario_load_price_formats = { format_names, PRICELIST_FORMATS };
const struct scenario_load_names scenario_load_offering_classes = { class_names, 2 };
