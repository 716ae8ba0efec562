/*
 * scenario_time: times derived from the scenario that both the loader and the run need (see scenario.h), so
 * that each is worked out in one place.
 */
#include "scenario.h"

int64_t scenario_window_phase_us(const struct scenario *sc)
{
	int64_t wl = sc->slo.window_us, s;

	if (wl <= 0)
		return 0;
	s = sc->start_unix_us % wl;
	return s < 0 ? s + wl : s;
}
