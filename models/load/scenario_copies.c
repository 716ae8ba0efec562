/*
 * scenario_copies: `serving.copies`, model copies on instances (SageMaker inference components; see
 * scenario.h and models/README.md, "Autoscaling: model copies"):
 *     serving:
 *       instance_type: p5.48xlarge          # 8 GPUs
 *       copies:
 *         gpus_per_copy: 2                  # NumberOfAcceleratorDevicesRequired
 *         per_instance: 4                   # default floor(8 / 2)
 *         slots_per_copy: 4                 # requests one copy serves at once (default 1)
 *         startup_s: 2m                     # or startup: {kind: lognormal, mean_s: 120, cv: 0.3}
 *         initial: 6                        # copies at t = 0
 *         min_instances: 0                  # ManagedInstanceScaling MinInstanceCount
 * With copies, slots are per copy, so serving.slots_per_instance is refused. What depends on the fleet
 * (the default initial count, the bounds in copies) is settled in scenario_copies_finish.
 */
#include "scenario_load.h"

#include "status.h"

#define DEFAULT_COPY_STARTUP_US (120 * S_US)  /* model download and load on a ready instance: an assumption
                                                 between the 77 s and 168 s model downloads
                                                 (SOURCES.md [delay-copy-startup]) */

static const char *const copies_keys[] = { "gpus_per_copy", "per_instance", "slots_per_copy", "startup_s",
	"startup", "initial", "min_instances", NULL };

int scenario_load_copies(struct load *l, const struct yamldoc_ref *serving)
{
	struct yamldoc_ref c, r;
	int gpus = l->sc.serving.gpus, most, rc;

	yamldoc_child(serving, "copies", &c);
	if (!c.node)
		return STATUS_OK;
	if ((rc = yamldoc_mapping(&l->y, &c, copies_keys, NULL, NULL)))
		return rc;
	yamldoc_child(serving, "slots_per_instance", &r);
	if (r.node)
		return yamldoc_fail(&l->y, &r, "with copies, requests are served per copy; expected "
					  "serving.copies.slots_per_copy instead");
	l->sc.copies.enabled = true;
	if ((rc = scenario_load_required(l, &c, "gpus_per_copy", "the GPUs one model copy needs "
					 "(NumberOfAcceleratorDevicesRequired)", &r)) ||
	    (rc = scenario_load_int(l, &r, 1, gpus, &l->sc.copies.gpus)))
		return rc;
	most = gpus / l->sc.copies.gpus;
	l->sc.copies.per_instance = most;
	yamldoc_child(&c, "per_instance", &r);
	if ((rc = scenario_load_int(l, &r, 1, most, &l->sc.copies.per_instance)))
		return rc;
	if (l->sc.copies.per_instance * l->sc.copies.gpus < gpus &&
	    (rc = scenario_load_warn(l, r.node ? &r : &c, "%d copies of %d GPUs leave %d of the instance's %d GPUs "
				     "unused (paid for, idle)", l->sc.copies.per_instance, l->sc.copies.gpus,
				     gpus - l->sc.copies.per_instance * l->sc.copies.gpus, gpus)))
		return rc;
	yamldoc_child(&c, "slots_per_copy", &r);
	if ((rc = scenario_load_int(l, &r, 1, MAX_SLOTS, &l->sc.serving.slots)))
		return rc;
	l->sc.copies.startup_us = DEFAULT_COPY_STARTUP_US;
	if ((rc = scenario_load_exclusive(l, &c, "startup_s", "startup")))
		return rc;
	yamldoc_child(&c, "startup_s", &r);
	if ((rc = scenario_load_duration(l, &r, 0, false, DAY_US, &l->sc.copies.startup_us)) ||
	    (rc = scenario_load_startup(l, &c, &l->sc.copies.startup)))
		return rc;
	l->sc.copies.initial = -1;
	yamldoc_child(&c, "initial", &r);
	if ((rc = scenario_load_int(l, &r, 0, MAX_INSTANCES * most, &l->sc.copies.initial)))
		return rc;
	yamldoc_child(&c, "min_instances", &r);
	return scenario_load_int(l, &r, 0, MAX_INSTANCES, &l->sc.copies.min_instances);
}

int scenario_copies_finish(struct load *l, int capacity, int counted)
{
	struct scenario *sc = &l->sc;
	struct yamldoc_ref serving, c, r;
	int per = sc->copies.per_instance;

	if (!sc->copies.enabled)
		return STATUS_OK;
	yamldoc_child(&l->root, "serving", &serving);
	yamldoc_child(&serving, "copies", &c);
	yamldoc_child(&c, "min_instances", &r);
	if (sc->copies.min_instances > capacity)
		return yamldoc_fail(&l->y, &r, "%d is more instances than the fleet can hold (%d); expected "
					  "at most %d", sc->copies.min_instances, capacity, capacity);
	yamldoc_child(&c, "initial", &r);
	if (sc->copies.initial > capacity * per)
		return yamldoc_fail(&l->y, &r, "%d copies do not fit: the fleet holds %d instances of %d "
					  "copies; expected at most %d", sc->copies.initial, capacity, per,
					  capacity * per);
	if (sc->copies.initial < 0)
		sc->copies.initial = counted * per;
	if (sc->autoscaling.policy != POLICY_NONE) {
		/* like the starting instances without copies: inside the bounds the policy keeps */
		if (sc->copies.initial < sc->autoscaling.min)
			sc->copies.initial = sc->autoscaling.min;
		if (sc->copies.initial > sc->autoscaling.max)
			sc->copies.initial = sc->autoscaling.max;
	} else if (sc->copies.initial < 1) {
		return yamldoc_fail(&l->y, r.node ? &r : &c, "no copy would ever serve (autoscaling.policy "
					  "is none); expected initial >= 1");
	}
	return STATUS_OK;
}

/* ---- tables shared with the schema (scenario_load.h) --------------------------------------------- */

const struct scenario_load_names scenario_load_copies_keys = SCENARIO_LOAD_KEYS(copies_keys);
