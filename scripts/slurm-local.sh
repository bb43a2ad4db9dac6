#!/usr/bin/env bash
# A real single-node Slurm on this machine, for trying the job-array workflow of the
# cluster guide (docs/guide/cluster.md) and for tests/slurm. It runs munged, slurmctld and slurmd as plain background
# daemons (no systemd needed), with a configuration written for this machine, and keeps
# everything it creates in one private folder:
#   scripts/slurm-local.sh up       install slurm-wlm and munge if missing, start the daemons
#   scripts/slurm-local.sh status   the daemons, the node and the queue
#   scripts/slurm-local.sh down     cancel its jobs, stop the daemons it started, remove the folder
# Needs root. Environment:
#   KEXP_SLURM_DIR   the private folder (default /tmp/kexp-slurm-local)
#   KEXP_SLURM_PORT  slurmctld's port; slurmd uses the next one (default 6817)
# After `up`, point the Slurm commands at this cluster with
#   export SLURM_CONF=$KEXP_SLURM_DIR/etc/slurm.conf
# (`up` and `status` print that line). Its own munged listens on a private socket, so a
# munged or Slurm already on the machine is left alone, as long as the ports differ.
set -euo pipefail

state=${KEXP_SLURM_DIR:-/tmp/kexp-slurm-local}
ctld_port=${KEXP_SLURM_PORT:-6817}
slurmd_port=$((ctld_port + 1))
conf=$state/etc/slurm.conf
export SLURM_CONF=$conf

say() { echo "slurm-local: $*"; }
die() {
  echo "slurm-local: $*" >&2
  exit 1
}

# Whether process $1 runs: it exists and is not a zombie (where no init reaps the
# daemons, a dead one stays a zombie).
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat%% *} != Z ]]
}

# The pid recorded in $state/run/NAME.pid, if that process still runs and is NAME
# (not another process that got the pid since).
live_pid() {
  local file=$state/run/$1.pid pid comm
  [[ -s $file ]] || return 1
  pid=$(<"$file")
  [[ $pid =~ ^[0-9]+$ ]] && running "$pid" || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [[ $comm == "$1"* ]] || return 1
  echo "$pid"
}

install_packages() {
  local packages=(slurm-wlm munge) missing=() p
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  ((${#missing[@]} == 0)) && return 0
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Slurm 22.05's cgroup/v2 plugin needs systemd, so cgroups are used only where the v1
# memory and freezer hierarchies are mounted and writable.
cgroup_v1_usable() {
  local c
  for c in memory freezer; do
    [[ $(stat -f -c %T "/sys/fs/cgroup/$c" 2>/dev/null) == cgroupfs ]] || return 1
    [[ -w /sys/fs/cgroup/$c ]] || return 1
  done
}

write_config() {
  local node cpus mem_mb real_mb def_mem proctrack task
  node=$(hostname -s)
  cpus=$(getconf _NPROCESSORS_ONLN)
  mem_mb=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024))
  # slurmd drains a node that claims more memory than it detects: keep 10% back.
  real_mb=$((mem_mb * 9 / 10))
  # Without a default, a job with no --mem gets the whole node and the array runs
  # one task at a time.
  def_mem=$((real_mb / cpus))
  if cgroup_v1_usable; then
    proctrack=proctrack/cgroup task=task/cgroup
  else
    proctrack=proctrack/linuxproc task=task/none
  fi
  mkdir -p "$state/etc"
  cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh for $node: $cpus CPUs, ${mem_mb} MB.
ClusterName=kexplocal
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
MpiDefault=none
ProctrackType=$proctrack
TaskPlugin=$task
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=$def_mem
# Reject requests the node can never satisfy instead of leaving them pending forever.
EnforcePartLimits=ALL
ReturnToService=2
StateSaveLocation=$state/spool/slurmctld
SlurmdSpoolDir=$state/spool/slurmd
SlurmctldPidFile=$state/spool/slurmctld.daemon.pid
SlurmdPidFile=$state/spool/slurmd.daemon.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=30
Waittime=0
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real_mb State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  if [[ $proctrack == proctrack/cgroup ]]; then
    cat >"$state/etc/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
CgroupAutomount=no
ConstrainCores=yes
ConstrainDevices=no
ConstrainRAMSpace=yes
ConstrainSwapSpace=no
EOF
  else
    rm -f "$state/etc/cgroup.conf"
  fi
}

# Waits up to $1 tenths of a second for the command after it to succeed.
wait_for() {
  local tenths=$1
  shift
  local i
  for ((i = 0; i < tenths; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

port_in_use() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

node_ready() {
  local s
  s=$(sinfo -h -N -o %T 2>/dev/null) || return 1
  [[ $s == idle* || $s == mixed* || $s == allocated* ]]
}

up() {
  [[ $(id -u) -eq 0 ]] || die "needs root (the daemons run as root)"
  if live_pid slurmctld >/dev/null && live_pid slurmd >/dev/null && live_pid munged >/dev/null; then
    say "already up in $state"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  # Whatever is left of an earlier bring-up is stopped and replaced.
  [[ -d $state ]] && stop_daemons
  for p in "$ctld_port" "$slurmd_port"; do
    port_in_use "$p" && die "port $p is in use; choose another with KEXP_SLURM_PORT"
  done
  install_packages
  command -v slurmctld >/dev/null || die "slurmctld not found after installing slurm-wlm"

  mkdir -p "$state"/{etc,run,log,spool/slurmctld,spool/slurmd}
  # munged insists that everyone can reach its socket folder and that only its
  # owner can read the key.
  chmod 755 "$state"
  local dir=$state
  while [[ $dir != / ]]; do
    dir=$(dirname "$dir")
    [[ $(stat -c %A "$dir") == ?????????[xt] ]] ||
      die "munged needs every folder above its socket searchable by all; $dir is not (chmod o+x)"
  done
  mkdir -p "$state/munge"
  chmod 755 "$state/munge"
  if [[ ! -s $state/munge.key ]]; then
    (umask 077 && head -c 1024 /dev/urandom >"$state/munge.key")
  fi
  write_config

  munged --socket="$state/munge/munge.socket" --key-file="$state/munge.key" \
    --log-file="$state/log/munged.log" --pid-file="$state/run/munged.pid" \
    --seed-file="$state/munge/munged.seed" ||
    die "munged did not start: $(tail -n 3 "$state/log/munged.log" 2>/dev/null)"
  wait_for 50 live_pid munged || die "munged did not write its pid"
  munge -S "$state/munge/munge.socket" -n | unmunge -S "$state/munge/munge.socket" >/dev/null ||
    die "munge round trip failed"

  # -c: start from an empty state; -D in the background so that $! is the daemon.
  slurmctld -D -c -f "$conf" >>"$state/log/slurmctld.out" 2>&1 &
  echo $! >"$state/run/slurmctld.pid"
  wait_for 100 scontrol ping || die "slurmctld does not answer: $(tail -n 5 "$state/log/slurmctld.log" 2>/dev/null)"
  slurmd -D -f "$conf" >>"$state/log/slurmd.out" 2>&1 &
  echo $! >"$state/run/slurmd.pid"
  wait_for 150 node_ready || die "node not ready: $(sinfo -h -N -o '%T %E' 2>&1); see $state/log/slurmd.log"
  say "up: node $(hostname -s), $(sinfo -h -N -o '%c CPUs, %m MB, %T'), $(grep -o 'TaskPlugin=.*' "$conf")"
  echo "export SLURM_CONF=$conf"
}

# Cancels every job of this cluster and waits (bounded) for them to end, so that no
# slurmstepd outlives slurmd; then stops the daemons whose pids were recorded.
stop_daemons() {
  local name pid i
  if live_pid slurmctld >/dev/null; then
    local jobs=()
    mapfile -t jobs < <(squeue -h -o %i 2>/dev/null | sort -u)
    if ((${#jobs[@]} > 0)); then scancel --quiet "${jobs[@]}" 2>/dev/null || true; fi
    for ((i = 0; i < 150; i++)); do
      [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
      sleep 0.2
    done
  fi
  # All at once: each takes a second or two to shut down.
  local pids=()
  for name in slurmd slurmctld munged; do
    pid=$(live_pid "$name") || continue
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  done
  for ((i = 0; i < 100 && ${#pids[@]} > 0; i++)); do
    local still=()
    for pid in "${pids[@]}"; do
      running "$pid" && still+=("$pid")
    done
    pids=(${still[@]+"${still[@]}"})
    sleep 0.1
  done
  for pid in ${pids[@]+"${pids[@]}"}; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f "$state"/run/{slurmd,slurmctld,munged}.pid
  # In cgroup mode slurmd leaves empty slurm_<node> trees; remove the empty ones.
  local node
  node=$(hostname -s)
  for c in /sys/fs/cgroup/*/slurm_"$node"; do
    [[ -d $c ]] || continue
    find "$c" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

down() {
  if [[ ! -d $state ]]; then
    say "nothing to stop ($state does not exist)"
    return 0
  fi
  [[ -f $state/etc/slurm.conf ]] || die "$state was not made by this script; not touching it"
  stop_daemons
  rm -rf "$state"
  say "down; removed $state"
}

status() {
  local name pid rc=0
  for name in munged slurmctld slurmd; do
    if pid=$(live_pid "$name"); then
      say "$name running, pid $pid"
    else
      say "$name not running"
      rc=3
    fi
  done
  if ((rc == 0)); then
    sinfo -N -o '%N %c %m %T'
    squeue
    echo "export SLURM_CONF=$conf"
  fi
  return $rc
}

case "${1:-}" in
up) up ;;
down) down ;;
status) status ;;
*)
  echo "usage: $0 {up|down|status}" >&2
  exit 2
  ;;
esac
