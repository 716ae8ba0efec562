/* provider: see provider.h. */
#include "provider.h"

#include <string.h>
#include <strings.h>

#include "engine.h"
#include "status.h"

#define US_PER_S 1000000
#define US_PER_MIN (60 * (int64_t)US_PER_S)
#define AWS_NOTICE_US (120 * (int64_t)US_PER_S)    /* SOURCES.md [spot-notice-2min] */
#define GCP_NOTICE_US (30 * (int64_t)US_PER_S)     /* SOURCES.md [gcp-spot-notice-30s] */
#define GCP_FREE_PREEMPT_US (60 * (int64_t)US_PER_S) /* SOURCES.md [gcp-spot-first-minute] */
#define AZURE_NOTICE_US (30 * (int64_t)US_PER_S)   /* SOURCES.md [az-spot-notice-30s] */

const char *const provider_names[PROVIDER_COUNT] = { [PROVIDER_AWS] = "aws", [PROVIDER_GCP] = "gcp",
	[PROVIDER_AZURE] = "azure" };

/* One bit per option kind each provider sells. */
#define BIT(k) (1u << (k))
#define COMMON (BIT(OPTION_RESERVED) | BIT(OPTION_ON_DEMAND) | BIT(OPTION_SPOT) | BIT(OPTION_ODCR) | \
		BIT(OPTION_SAVINGS_PLAN))
static const unsigned offered[PROVIDER_COUNT] = {
	[PROVIDER_AWS] = COMMON | BIT(OPTION_CAPACITY_BLOCK) | BIT(OPTION_TRAINING_PLAN),
	[PROVIDER_GCP] = COMMON,
	[PROVIDER_AZURE] = COMMON,
};
_Static_assert(OPTION_KIND_COUNT <= 32, "provider.offered keeps one bit per option kind");

const char *provider_name(enum provider p)
{
	return (unsigned)p < PROVIDER_COUNT ? provider_names[p] : "?";
}

const char *provider_default_region(enum provider p)
{
	static const char *const regions[PROVIDER_COUNT] = { "us-east-1", "us-central1", "eastus" };

	return (unsigned)p < PROVIDER_COUNT ? regions[p] : "?";
}

bool provider_offers(enum provider p, enum option_kind kind)
{
	return (unsigned)p < PROVIDER_COUNT && (unsigned)kind < OPTION_KIND_COUNT && (offered[p] & BIT(kind));
}

const char *provider_option_list(enum provider p)
{
	if (p == PROVIDER_AWS)
		return "reserved, on_demand, spot, odcr, savings_plan, capacity_block or training_plan";
	if (p == PROVIDER_GCP)
		return "reserved, on_demand, spot, odcr, savings_plan, gcp_calendar, gcp_preemptible or gcp_dws_flex";
	return "reserved, on_demand, spot, odcr, savings_plan or azure_block";
}

static const struct {
	enum provider provider;
	const char *name;
	enum option_kind kind;
	enum provider_variant variant;
} variants[] = {
	{ PROVIDER_GCP, "gcp_calendar", OPTION_CAPACITY_BLOCK, VARIANT_CALENDAR },
	{ PROVIDER_GCP, "gcp_preemptible", OPTION_SPOT, VARIANT_PREEMPTIBLE },
	{ PROVIDER_GCP, "gcp_dws_flex", OPTION_ON_DEMAND, VARIANT_FLEX },
	{ PROVIDER_AZURE, "azure_block", OPTION_CAPACITY_BLOCK, VARIANT_AZURE_BLOCK },
};

bool provider_parse_variant(enum provider p, const char *name, enum option_kind *kind,
			    enum provider_variant *variant)
{
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
		if (variants[i].provider == p && strcmp(variants[i].name, name) == 0) {
			*kind = variants[i].kind;
			*variant = variants[i].variant;
			return true;
		}
	}
	return false;
}

bool provider_variant_at(int i, const char **name, enum option_kind *kind)
{
	if (i < 0 || (size_t)i >= sizeof variants / sizeof variants[0])
		return false;
	*name = variants[i].name;
	*kind = variants[i].kind;
	return true;
}

const char *provider_variant_name(enum provider_variant v)
{
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
		if (variants[i].variant == v)
			return variants[i].name;
	return NULL;
}

int64_t provider_spot_notice_us(enum provider p)
{
	switch (p) {
	case PROVIDER_GCP: return GCP_NOTICE_US;
	case PROVIDER_AZURE: return AZURE_NOTICE_US;
	default: return AWS_NOTICE_US;
	}
}

const char *provider_article(enum provider p)
{
	return provider_name(p)[0] == 'a' ? "an" : "a";
}

bool provider_spot_first_hour_free(enum provider p)
{
	return p == PROVIDER_AWS;
}

int64_t provider_spot_free_preempt_us(enum provider p)
{
	return p == PROVIDER_GCP ? GCP_FREE_PREEMPT_US : 0;
}

/* True if s ends with suffix, compared without case. */
static bool ends_with_nocase(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

bool provider_reservable(enum provider p, const char *type)
{
	if (p != PROVIDER_AZURE)
		return true;
	if (strncasecmp(type, "Standard_ND", 11) == 0)
		return false;  /* "ND-series" */
	return !(strncasecmp(type, "Standard_NC", 11) == 0 && ends_with_nocase(type, "ads_H100_v5"));
}

int provider_bill(enum provider p, double usd_per_h, int64_t launch_us, int64_t end_us, bool ended_early,
		  bool before_window, double *usd, double *billed_us)
{
	int64_t held = end_us - launch_us, billed;

	switch (p) {
	case PROVIDER_AWS:
	case PROVIDER_GCP:
		return option_bill(OPTION_ON_DEMAND, usd_per_h, launch_us, end_us, ended_early, before_window, usd,
				   billed_us);
	case PROVIDER_AZURE:
		if (held < 0)
			held = 0;
		billed = ended_early ? held / US_PER_MIN * US_PER_MIN : held;  /* full minutes only */
		*billed_us = (double)billed;
		*usd = usd_per_h * (double)billed / SIM_US_PER_H_D;
		return STATUS_OK;
	default:
		return STATUS_EINPUT;
	}
}
