/* mig: see mig.h. Tables from NVIDIA's MIG user guide and mig-parted's default configuration
 * (SOURCES.md [mig-profiles]). */
#include "mig.h"

#include <stdio.h>
#include <string.h>

/* A100 40GB: 1g.5gb x7, 1g.5gb+me x1, 1g.10gb x4, 2g.10gb x3, 3g.20gb x2, 4g.20gb x1, 7g.40gb x1 */
static const struct mig_profile a100_40[] = {
	{ "1g.5gb", 1, 1, 7, false }, { "1g.5gb+me", 1, 1, 1, true }, { "1g.10gb", 1, 2, 4, false },
	{ "2g.10gb", 2, 2, 3, false }, { "3g.20gb", 3, 4, 2, false }, { "4g.20gb", 4, 4, 1, false },
	{ "7g.40gb", 7, 8, 1, false },
};

/* A100 80GB and H100 80GB: 1g.10gb x7, 1g.10gb+me x1, 1g.20gb x4, 2g.20gb x3, 3g.40gb x2, 4g.40gb x1,
 * 7g.80gb x1 (mig-parted's section "H100-80GB, H800-80GB, A100-80GB, A800-80GB") */
static const struct mig_profile gb80[] = {
	{ "1g.10gb", 1, 1, 7, false }, { "1g.10gb+me", 1, 1, 1, true }, { "1g.20gb", 1, 2, 4, false },
	{ "2g.20gb", 2, 2, 3, false }, { "3g.40gb", 3, 4, 2, false }, { "4g.40gb", 4, 4, 1, false },
	{ "7g.80gb", 7, 8, 1, false },
};

/* H200 141GB: 1g.18gb x7, 1g.18gb+me x1, 1g.35gb x4, 2g.35gb x3, 3g.71gb x2, 4g.71gb x1, 7g.141gb x1 */
static const struct mig_profile h200[] = {
	{ "1g.18gb", 1, 1, 7, false }, { "1g.18gb+me", 1, 1, 1, true }, { "1g.35gb", 1, 2, 4, false },
	{ "2g.35gb", 2, 2, 3, false }, { "3g.71gb", 3, 4, 2, false }, { "4g.71gb", 4, 4, 1, false },
	{ "7g.141gb", 7, 8, 1, false },
};

#define GPU(m, t) { m, t, (int)(sizeof t / sizeof t[0]) }
static const struct mig_gpu gpus[] = {
	GPU("A100 40GB", a100_40), GPU("A100 80GB", gb80), GPU("H100 80GB", gb80), GPU("H200 141GB", h200),
};

const struct mig_gpu *mig_gpu_find(const char *model)
{
	for (size_t i = 0; model && i < sizeof gpus / sizeof gpus[0]; i++)
		if (strcmp(gpus[i].model, model) == 0)
			return &gpus[i];
	return NULL;
}

const struct mig_profile *mig_profile_find(const struct mig_gpu *gpu, const char *name)
{
	for (int i = 0; i < gpu->nprofiles; i++)
		if (strcmp(gpu->profiles[i].name, name) == 0)
			return &gpu->profiles[i];
	return NULL;
}

bool mig_layout_fits(const struct mig_profile *const *profiles, const int *counts, int n, char *why,
		     size_t size)
{
	int compute = 0, memory = 0;

	for (int i = 0; i < n; i++) {
		const struct mig_profile *p = profiles[i];
		if (counts[i] > p->max_per_gpu) {
			snprintf(why, size, "%d x %s do not fit one GPU: at most %d fit", counts[i], p->name,
				 p->max_per_gpu);
			return false;
		}
		compute += counts[i] * p->compute;
		memory += counts[i] * p->memory;
		if (compute > MIG_COMPUTE_SLICES || memory > MIG_MEMORY_SLICES) {
			snprintf(why, size, "with %d x %s the layout takes %d compute slices (of %d) and %d memory "
				 "slices (of %d): it does not fit one GPU", counts[i], p->name, compute,
				 MIG_COMPUTE_SLICES, memory, MIG_MEMORY_SLICES);
			return false;
		}
	}
	return true;
}

const char *mig_profile_names(const struct mig_gpu *gpu, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < gpu->nprofiles && o < size; i++)
		if (!gpu->profiles[i].media)
			o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? ", " : "", gpu->profiles[i].name);
	return buf;
}
