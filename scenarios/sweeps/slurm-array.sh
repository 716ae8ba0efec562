#!/bin/bash
# Run a gpucap sweep as a Slurm array job: each array task runs every N-th run of the sweep into its own
# database (gpucap reads its shard K/N from SLURM_ARRAY_TASK_ID, _MIN and _COUNT), then merge the shards:
#
#   sbatch --wait scenarios/sweeps/slurm-array.sh          # 8 tasks, as set below
#   gpucap merge tvr.sqlite tvr-shard-*.sqlite
#
# The array's size is the number of shards; change --array (or give --array on the sbatch command line) and
# nothing else. A task that dies can be run again alone: `sbatch --array=5 ...` resumes its shard
# (--resume runs only the runs its database does not hold yet). GPUCAP and SWEEP may be set in the
# environment sbatch passes on (default: gpucap on the PATH, the example sweep).
#SBATCH --job-name=gpucap-sweep
#SBATCH --array=1-8
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=gpucap-sweep-%A-%a.out
set -euo pipefail
GPUCAP=${GPUCAP:-gpucap}
SWEEP=${SWEEP:-scenarios/sweeps/target-vs-reserved.yaml}
exec "$GPUCAP" sweep "$SWEEP" --db "${SHARD_PREFIX:-tvr}-shard-${SLURM_ARRAY_TASK_ID}.sqlite" --resume --quiet
