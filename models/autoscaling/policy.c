/* policy: see policy.h. */
#include "policy.h"

#include "status.h"

struct policy *policy_new(const struct scenario *sc, int *status)
{
	struct policy *p = NULL;

	*status = STATUS_OK;
	switch (sc->autoscaling.policy) {
	case POLICY_NONE:
		return NULL;
	case POLICY_TARGET_TRACKING:
		p = policy_target_new(sc);
		break;
	case POLICY_STEP:
		p = policy_step_new(sc);
		break;
	case POLICY_HPA:
		p = policy_hpa_new(sc->autoscaling.target, sc->autoscaling.tolerance, sc->autoscaling.min,
				   sc->autoscaling.max, sc->autoscaling.stabilization_window_us,
				   sc->autoscaling.scale_up_percent, sc->autoscaling.scale_up_pods);
		break;
	case POLICY_PREDICTIVE:
		p = policy_predictive_new(sc);
		break;
	}
	if (!p) {
		*status = STATUS_ENOMEM;
		return NULL;
	}
	p->min = sc->autoscaling.min;
	p->max = sc->autoscaling.max;
	return p;
}

void policy_free(struct policy *p)
{
	if (p)
		p->ops->free(p);
}
