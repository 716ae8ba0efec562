/*
 * reservation: what the options paid up front for a window share (option_block.c, option_plan.c): a
 * Capacity Block and a SageMaker training plan segment are both a fixed number of instances reserved from
 * start_us to start_us + duration_us, paid in full whether used or not (SOURCES.md [cb-upfront],
 * [tp-upfront]), whose instances the option places itself.
 *
 * The group's timer and phase (struct fleet_group.opt.block) step through the window; each option decides
 * its phases and what happens at each. Billing is the same for both: the window bears the share of the
 * price that falls inside it (cost, GPU-hours paid, a used line on the bill), a purchase line when the
 * reservation starts inside the window, and the share after the horizon is a commitment left
 * (commitment_after_horizon_<option>_usd). All bills go under the group's own option kind.
 */
#ifndef GPUCAP_RESERVATION_H
#define GPUCAP_RESERVATION_H

#include <stdbool.h>
#include <stdint.h>

#include "fleet_private.h"

/* When the reservation ends, from the scenario start (microseconds). */
int64_t reservation_end_us(const struct fleet_entry *e);

/* Its whole price, USD: upfront_usd when given, else count x usd_per_h x its hours. */
double reservation_price(const struct fleet_entry *e);

/*
 * Run fn on the group's timer at t_us (now, if t_us is already past) with the group's phase set to
 * `phase`; nothing is scheduled past the horizon. A failure to schedule stops the run (meter_fail).
 */
void reservation_schedule(struct fleet *f, struct fleet_group *g, int phase, int64_t t_us,
			  void (*fn)(struct engine *, struct event *));

/* Place every instance the group may hold now: warm (serving at once: the reservation began before t = 0)
 * or launching. Logs one event ("start" or "launch") under the group's option, with `why`. Launched ones
 * of a serving group add to the desired capacity. Returns how many were placed. */
int reservation_open(struct fleet *f, struct fleet_group *g, bool warm, const char *why);

/* The reservation's instances leave: a launching one (and, with idle_now, one holding nothing) is retired
 * now, every other one gets a notice and is taken at doom_us (`why` in the event log). A serving group's
 * instances leave the desired capacity at once, so the policy and the other options take the load. */
void reservation_leave(struct fleet *f, struct fleet_group *g, bool idle_now, int64_t doom_us, const char *why);

/* The option's close hook: cancel the timer and bill the window's share, the purchase and what is left
 * after horizon_us. */
void reservation_close(struct fleet *f, struct fleet_group *g, int64_t horizon_us, const struct meter_payer *pay);

/* The option's rate hook: the price spread evenly over the reservation while it is open, USD per hour. */
double reservation_rate(const struct fleet *f, const struct fleet_group *g, int64_t now_us);

#endif
