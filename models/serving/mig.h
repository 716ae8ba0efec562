/*
 * mig: NVIDIA Multi-Instance GPU (MIG) profiles, and whether a partition layout fits one GPU.
 *
 * A MIG profile "Ng.Mgb" is a GPU instance of N compute slices (of 7) and M GB of memory; it occupies a
 * fixed number of the GPU's 8 memory slices (its placement size, from NVIDIA's `nvidia-smi mig -lgipp`
 * placements, SOURCES.md [mig-profiles]): 1g = 1 (the double-memory 1g.10gb on A100 40GB, 1g.20gb on
 * A100 80GB / H100, 1g.35gb on H200 = 2), 2g = 2, 3g = 4, 4g = 4, 7g = 8. A layout fits one GPU when its
 * compute slices sum to at most 7, its memory slices to at most 8, and no profile appears more times than
 * NVIDIA's table allows on one GPU (SOURCES.md [mig-profiles]). `+me` profiles exist but SageMaker does not
 * support them (SOURCES.md [sm-mig-layout]); the table marks them so the loader can say so.
 *
 * The tables are static, read-only data: pointers returned live for the whole process.
 */
#ifndef GPUCAP_MIG_H
#define GPUCAP_MIG_H

#include <stdbool.h>
#include <stddef.h>

#define MIG_COMPUTE_SLICES 7  /* compute slices of one GPU */
#define MIG_MEMORY_SLICES 8   /* memory slices of one GPU */

struct mig_profile {
	const char *name;   /* e.g. "3g.40gb" */
	int compute;        /* compute slices, 1..7 */
	int memory;         /* memory slices its placement occupies, 1..8 */
	int max_per_gpu;    /* most instances of it on one GPU (NVIDIA's table) */
	bool media;         /* a `+me` profile (media extensions): refused by SageMaker */
};

struct mig_gpu {
	const char *model;                     /* the catalogue's gpu_model, e.g. "H100 80GB" */
	const struct mig_profile *profiles;    /* its profiles */
	int nprofiles;
};

/* The MIG table of the GPU model `model` (catalog.h's gpu_model), or NULL if it is not MIG-capable here. */
const struct mig_gpu *mig_gpu_find(const char *model);

/* The profile `name` of gpu, or NULL. */
const struct mig_profile *mig_profile_find(const struct mig_gpu *gpu, const char *name);

/*
 * Whether n profiles (borrowed) with counts fit one GPU: true, or false with the reason in why (size bytes),
 * naming the profile that broke it and what fits.
 */
bool mig_layout_fits(const struct mig_profile *const *profiles, const int *counts, int n, char *why,
		     size_t size);

/* The non-`+me` profile names of gpu joined by ", " into buf (size bytes); returns buf. */
const char *mig_profile_names(const struct mig_gpu *gpu, char *buf, size_t size);

#endif
