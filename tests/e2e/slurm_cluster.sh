# A real one-node Slurm cluster for the tests, started without systemd in a scratch folder and stopped on
# exit. Sourced after lib.sh (uses $TMP). Needs root and Debian's slurmctld, slurmd, slurm-client and munge.
#
# How it is put together (the traps are the ones found making it work):
# - munge authenticates the daemons and clients: the package makes /etc/munge/munge.key (mungekey --create
#   if missing); /run/munge must exist and belong to munge; munged runs in the foreground as the munge user
#   through setpriv, so that $! is munged's own PID; it is ready when `munge -n | unmunge` succeeds.
# - slurm.conf lives in the scratch folder and SLURM_CONF points every client at it; the daemons get it with
#   -f. No cgroups (proctrack/linuxproc, task/none), no accounting, root as SlurmUser, one node at 127.0.0.1
#   with this machine's CPUs, one default partition.
# - MinJobAge=4: with the default (300 s) `sbatch --wait` polls at 2, 8, 32 s and sees a finished job late.
# - `sbatch --wait` exits with the highest exit code of the array's tasks, so a failed task fails the test.
# - Harmless noise on a first start: "can not load PMIx library", "Could not open ... state file".
slurm_available() {
	[ "$(id -u)" = 0 ] && command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
		command -v sbatch >/dev/null && command -v munged >/dev/null
}

SLURM_PIDS=()
slurm_stop() {
	local i
	for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do  # slurmd, then slurmctld, then munged
		kill "${SLURM_PIDS[$i]}" 2>/dev/null
		wait "${SLURM_PIDS[$i]}" 2>/dev/null
	done
	SLURM_PIDS=()
}

# slurm_start: start munged, slurmctld and slurmd; returns non-zero (with a message) if the node never
# becomes idle within 60 s.
slurm_start() {
	local host dir=$TMP/slurm i
	host=$(hostname -s)
	mkdir -p "$dir/state" "$dir/spool" "$dir/log" /run/munge
	chown munge:munge /run/munge
	[ -s /etc/munge/munge.key ] || mungekey --create >/dev/null 2>&1
	setpriv --reuid=munge --regid=munge --init-groups -- /usr/sbin/munged --foreground >"$dir/log/munged.log" 2>&1 &
	SLURM_PIDS+=($!)
	for i in $(seq 1 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
	cat >"$dir/slurm.conf" <<CONF
ClusterName=gpucaptest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
MinJobAge=4
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF=$dir/slurm.conf
	slurmctld -D -i -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
	SLURM_PIDS+=($!)
	slurmd -D -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 &
	SLURM_PIDS+=($!)
	for i in $(seq 1 300); do
		[ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ] && return 0
		sleep 0.2
	done
	echo "slurm: the node never became idle; logs in $dir/log:" >&2
	tail -n 20 "$dir"/log/*.log >&2
	return 1
}
