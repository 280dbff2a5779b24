# A one-node Slurm cluster on this machine, for the tests: munged,
# slurmctld and slurmd started in the foreground as children of the test
# (so that it stops them by their pids and waits for them), their key,
# sockets, state, spool, logs and configuration in one temporary folder,
# on private ports. Nothing is installed here: CI installs Debian's
# slurm-wlm and munge (tools/setup.sh). Source it, then:
#   local_slurm_start   exports SLURM_CONF; returns 77 with a message on
#                       stderr where a cluster cannot start here
#   local_slurm_stop    cancels the jobs left, stops the daemons it started,
#                       waits for them and removes its folder (call it from
#                       an EXIT trap: also after a start that failed)
# Needs root (munged and slurmd run as root, SlurmUser=root), as on CI.

local_slurm_pids=()
local_slurm_dir=""

local_slurm_skip() {  # MESSAGE
  echo "SKIP: no local Slurm cluster: $1" >&2
  return 77
}

# A TCP port nothing listens on, from a range the kernel does not hand out
# to outgoing connections.
local_slurm_free_port() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 12000))
    ss -Hltn "sport = :$port" 2>/dev/null | grep -q . || { echo "$port"; return 0; }
  done
  return 1
}

local_slurm_start() {
  local dir bin
  [ "$(id -u)" = 0 ] || { local_slurm_skip "the daemons run as root here; this is uid $(id -u)"; return; }
  for bin in munged slurmctld slurmd sbatch squeue sinfo scancel ss; do
    command -v "$bin" >/dev/null || { local_slurm_skip "$bin is not installed (Debian: slurm-wlm, munge)"; return; }
  done
  # munged insists that the socket's folders are searchable by all and the key private.
  dir=$(mktemp -d /tmp/warpcheck-slurm.XXXXXX) || { local_slurm_skip "cannot make a folder in /tmp"; return; }
  local_slurm_dir=$dir
  chmod 755 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
  chmod 755 "$dir/munge"
  head -c 128 /dev/urandom > "$dir/munge/munge.key"
  chmod 600 "$dir/munge/munge.key"
  munged --foreground --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" >>"$dir/log/munged.out" 2>&1 &
  local_slurm_pids+=($!)
  for _ in $(seq 50); do [ -S "$dir/munge/socket" ] && break; sleep 0.1; done
  [ -S "$dir/munge/socket" ] || { local_slurm_skip "munged did not start: $(tail -n 3 "$dir/log/munged.out" 2>/dev/null | tr '\n' ' ')"; return; }

  local node ctld_port slurmd_port
  node=$(hostname -s)
  ctld_port=$(local_slurm_free_port) && slurmd_port=$(local_slurm_free_port) || { local_slurm_skip "no free port"; return; }
  cat > "$dir/slurm.conf" <<EOF
ClusterName=warpchecktest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# Schedule a submitted batch job at once (the default waits up to 3 s).
SchedulerParameters=batch_sched_delay=0
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=500 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -f "$SLURM_CONF" >>"$dir/log/slurmctld.out" 2>&1 &
  local_slurm_pids+=($!)
  slurmd -D -f "$SLURM_CONF" >>"$dir/log/slurmd.out" 2>&1 &
  local_slurm_pids+=($!)
  for _ in $(seq 150); do
    [ "$(sinfo --noheader --nodes="$node" --format=%t 2>/dev/null)" = idle ] && return 0
    sleep 0.2
  done
  local_slurm_skip "the node did not come up within 30 s: $(tail -n 3 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" 2>&1 | tr '\n' ' ')"
}

local_slurm_stop() {
  [ -n "${SLURM_CONF:-}" ] && scancel --full --user=root >/dev/null 2>&1
  local pid watchdog
  # slurmd first, then the controller, then munged (each needs the next);
  # one that has not ended 10 s after SIGTERM gets SIGKILL.
  for ((i = ${#local_slurm_pids[@]} - 1; i >= 0; i--)); do
    pid=${local_slurm_pids[$i]}
    kill "$pid" 2>/dev/null
    (sleep 10; kill -9 "$pid" 2>/dev/null) &
    watchdog=$!
    wait "$pid" 2>/dev/null
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
  done
  local_slurm_pids=()
  [ -n "$local_slurm_dir" ] && rm -rf "$local_slurm_dir"
  local_slurm_dir=""
  unset SLURM_CONF
}
