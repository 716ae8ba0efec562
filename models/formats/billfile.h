/*
 * billfile: a cloud bill of a past period, FinOps FOCUS (1.0, 1.1, 1.2) or AWS CUR 2.0 as CSV, read row by
 * row and added up per UTC clock hour and purchase class (`gpucap calibrate`, analysis/README.md
 * "Calibrating against a bill").
 *
 * Which format: the header decides (a ChargePeriodStart column: FOCUS; line_item_usage_start_date: CUR 2.0),
 * unless the caller forces one. Only the rows of the instance types asked for are kept: a row's type is its
 * SkuId, ResourceType, x_UsageType or x_InstanceType (FOCUS), or its product_instance_type or
 * line_item_usage_type (CUR), equal to the type or ending in ":" and the type ("USE1-BoxUsage:p5.48xlarge").
 * The rows left out are counted by reason (another type; not usage: tax, credit, refund, purchases and fees,
 * Savings Plan negation).
 *
 * What a kept row adds to its class (enum billclass) in each clock hour it touches:
 *   hours_h     instance-hours used (pay-as-you-go usage, and usage a commitment or reservation covered);
 *   cost_usd    effective (amortised) cost, unused commitment and reservation included;
 *   used_h      the instance-hours a commitment or reservation covered;
 *   unused_usd  the cost of commitment or reserved capacity nobody used.
 * FOCUS: Usage rows only (ChargeCategory; Purchase rows carry no effective cost: it is on the usage rows);
 * quantity ConsumedQuantity (ConsumedUnit Hours, or empty), cost EffectiveCost. The class: a commitment row
 * (CommitmentDiscountStatus Used or Unused, or PricingCategory Committed; FOCUS 1.0's ChargeSubcategory
 * "Used Commitment" / "Unused Commitment") is savings_plan when CommitmentDiscountType names a Savings Plan
 * or CommitmentDiscountCategory is Spend, else reserved; else PricingCategory Dynamic is spot; else a row with
 * a CapacityReservationId is reservation (CapacityReservationStatus Unused: unused); else on_demand.
 * CUR 2.0, by line_item_line_item_type: Usage is spot when the usage type holds "SpotUsage" or pricing_term
 * is Spot, else on_demand, at line_item_unblended_cost; SavingsPlanCoveredUsage is savings_plan at
 * savings_plan_savings_plan_effective_cost; DiscountedUsage is reserved at reservation_effective_cost; RIFee
 * adds reserved unused cost, reservation_unused_amortized_upfront_fee_for_billing_period +
 * reservation_unused_recurring_fee; SavingsPlanRecurringFee adds savings_plan unused cost,
 * savings_plan_total_commitment_to_date - savings_plan_used_commitment (a Compute Savings Plan's fee names no
 * instance type: kept only if its usage type matches). Every other line item type is left out (Tax, Credit,
 * Refund, Fee, SavingsPlanNegation, SavingsPlanUpfrontFee, discounts). CUR does not mark capacity
 * reservations apart from On-Demand usage: they count as on_demand.
 *
 * Sources: SOURCES.md [cur2-line-items], [focus-commitment-rows].
 *
 * Time: a row's period [start, end) (ChargePeriodStart/End; line_item_usage_start/end_date), ISO-8601 UTC
 * ("2026-11-02T00:00:00Z", a fraction, "+00:00", or a space for the T and no zone) is split over the clock
 * hours it touches in proportion to the time in each: a day-long row adds 1/24 of itself to each hour.
 *
 * Memory: one row at a time (64 KiB blocks, libcsv), and one cell per (hour, class) of the bill's span,
 * at most BILLFILE_HOURS_MAX hours.
 *
 * Errors (STATUS_EINPUT, "FILE:LINE:COL: what; expected what", LINE from 1 with the header as line 1, COL
 * the field's number): an unknown header, a missing required column (named), a bad time or one whose end is
 * not after its start, a non-numeric or negative amount, an unknown unit, bad CSV quoting, a NUL byte, a line
 * over BILLFILE_LINE_MAX bytes, a span over BILLFILE_HOURS_MAX hours, no row left after filtering (saying
 * how many were left out and why). STATUS_ENOENT for a file that cannot be opened, STATUS_EIO for a read
 * error, STATUS_ENOMEM. On failure the struct is zeroed.
 */
#ifndef GPUCAP_BILLFILE_H
#define GPUCAP_BILLFILE_H

#include <stdint.h>

#include "diag.h"

#define BILLFILE_LINE_MAX (64 * 1024)       /* longest line accepted, bytes */
#define BILLFILE_HOURS_MAX (2 * 366 * 24)  /* longest span of a bill, clock hours: two years */
#define BILLFILE_TYPES_MAX 16               /* instance types one read may keep */

enum billfile_format {
	BILLFILE_AUTO,   /* decided by the header */
	BILLFILE_FOCUS,  /* FinOps FOCUS 1.0 to 1.2 */
	BILLFILE_CUR     /* AWS CUR 2.0 (Data Exports), snake_case columns */
};

/* How capacity was bought, as a bill can tell it (analysis/README.md maps gpucap's options to these). */
enum billclass {
	BILLCLASS_ON_DEMAND,
	BILLCLASS_SPOT,
	BILLCLASS_RESERVED,      /* Reserved Instances */
	BILLCLASS_SAVINGS_PLAN,
	BILLCLASS_RESERVATION,   /* capacity reservations: ODCRs, Capacity Blocks, training plans (FOCUS only) */
	BILLCLASS_N
};

/* One (clock hour, class) of a bill. */
struct billcell {
	double hours_h;     /* instance-hours used */
	double cost_usd;    /* effective cost, unused commitment and reservation included */
	double used_h;      /* instance-hours covered by a commitment or reservation */
	double unused_usd;  /* cost of commitment or reserved capacity not used */
};

struct billfile {
	enum billfile_format format;  /* as read (never AUTO once loaded) */
	int64_t start_unix_s;         /* the first clock hour with a kept row, on the hour */
	int nhours;                   /* clock hours from it to the last one with a kept row */
	double first_unix_s;          /* the earliest start of a kept row's period */
	double last_unix_s;           /* the latest end of a kept row's period */
	struct billcell *cells;       /* cells[h * BILLCLASS_N + c]; owned */
	int64_t rows;                 /* data rows read */
	int64_t kept;                 /* rows added up */
	int64_t other_type;           /* rows left out: another instance type or service */
	int64_t not_usage;            /* rows left out: tax, credit, refund, purchases and fees, negation */
};

/* The class's name as stored and printed: "on_demand", "spot", "reserved", "savings_plan", "reservation". */
const char *billclass_name(enum billclass c);

/* "focus" or "cur". */
const char *billfile_format_name(enum billfile_format f);

/*
 * Read the bill at path (borrowed), in format fmt (AUTO: by the header), keeping the rows of the ntypes
 * (1..BILLFILE_TYPES_MAX) instance types (borrowed), into *b (returns owned: billfile_fini). On failure *b is
 * zeroed and the message is in d.
 */
int billfile_load(struct billfile *b, const char *path, enum billfile_format fmt, const char *const *types,
		  int ntypes, struct diag *d);

/* Free what b holds and zero it. A zeroed struct is allowed. */
void billfile_fini(struct billfile *b);

#endif
