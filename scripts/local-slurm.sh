#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying `experiments slurm` and for the
# integration test (experiments/tests/slurm.rs):
#
#   scripts/local-slurm.sh start    # munged, slurmctld and slurmd on localhost (idempotent)
#   scripts/local-slurm.sh stop     # stops only what `start` started (by its pid files)
#   scripts/local-slurm.sh status   # says whether it runs, and the SLURM_CONF to export
#
# Needs root (slurmd runs jobs as the submitting user) and Debian's packages
# `apt-get install -y --no-install-recommends slurm-wlm munge`; their services are not
# started by the package here (no init), so this script starts the daemons itself. Everything
# (munge key and socket, slurm.conf, state, logs, pid files) lives in one folder,
# $LOCAL_SLURM_DIR (default /tmp/local-slurm); the system's /etc/slurm and /etc/munge are not
# touched. Client commands (sbatch, squeue, ...) find the cluster through
#
#   export SLURM_CONF=$LOCAL_SLURM_DIR/slurm.conf
#
# which the integration test also looks for. The configuration is the smallest that works
# without cgroups: proctrack/linuxproc, task/none, the node named by `hostname -s` at
# 127.0.0.1, and SlurmdParameters=config_overrides (the node's CPUs and memory as written here).
set -euo pipefail

DIR="${LOCAL_SLURM_DIR:-/tmp/local-slurm}"
CONF="$DIR/slurm.conf"
MUNGE="$DIR/munge"
SOCKET="$MUNGE/munge.socket.2"

say() { echo "local-slurm: $*" >&2; }

# True when the pid file names a running process.
running() {
    [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null
}

require() {
    for program in munged slurmctld slurmd sbatch squeue; do
        if ! command -v "$program" >/dev/null && [[ ! -x "/usr/sbin/$program" ]]; then
            say "'$program' is not installed: apt-get install -y --no-install-recommends slurm-wlm munge"
            exit 1
        fi
    done
    if [[ "$(id -u)" != 0 ]]; then
        say "must run as root (slurmd starts jobs as their user)"
        exit 1
    fi
}

write_config() {
    local node cpus memory
    node="$(hostname -s)"
    cpus="$(nproc)"
    memory=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 ))
    cat >"$CONF" <<EOF
# Written by scripts/local-slurm.sh: a single-node cluster on localhost.
ClusterName=local
SlurmctldHost=localhost
SlurmUser=root
SlurmctldPort=${LOCAL_SLURM_PORT:-6817}
SlurmdPort=$(( ${LOCAL_SLURM_PORT:-6817} + 1 ))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
    if running "$MUNGE/munged.pid"; then
        return
    fi
    mkdir -p "$MUNGE"
    if [[ ! -f "$MUNGE/munge.key" ]]; then
        dd if=/dev/urandom of="$MUNGE/munge.key" bs=1024 count=1 status=none
    fi
    chown -R munge:munge "$MUNGE"
    chmod 0700 "$MUNGE"
    chmod 0400 "$MUNGE/munge.key"
    # --force: the state folder sits under /tmp, which munged would otherwise call insecure.
    runuser -u munge -- /usr/sbin/munged --force \
        --key-file="$MUNGE/munge.key" --socket="$SOCKET" \
        --pid-file="$MUNGE/munged.pid" --log-file="$MUNGE/munged.log" \
        --seed-file="$MUNGE/munged.seed"
}

start() {
    require
    mkdir -p "$DIR/state" "$DIR/spool"
    chmod 0755 "$DIR"
    start_munge
    if ! running "$DIR/slurmctld.pid" || ! running "$DIR/slurmd.pid"; then
        write_config
    fi
    export SLURM_CONF="$CONF"
    if ! running "$DIR/slurmctld.pid"; then
        # -i: ignore state left by an earlier cluster in this folder that cannot be recovered.
        /usr/sbin/slurmctld -f "$CONF" -i
    fi
    if ! running "$DIR/slurmd.pid"; then
        /usr/sbin/slurmd -f "$CONF"
    fi
    # Wait until the node takes jobs.
    local node state
    node="$(hostname -s)"
    for _ in $(seq 1 60); do
        state="$(sinfo -h -n "$node" -o '%t' 2>/dev/null || true)"
        if [[ "$state" == idle* || "$state" == mix* || "$state" == alloc* ]]; then
            say "up: node $node is $state; export SLURM_CONF=$CONF"
            return
        fi
        sleep 0.5
    done
    say "the node did not come up within 30 s (state '${state:-unknown}'); see $DIR/*.log"
    exit 1
}

stop_one() {
    local pid_file="$1" name="$2"
    if running "$pid_file"; then
        local pid
        pid="$(cat "$pid_file")"
        kill "$pid"
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        say "stopped $name (pid $pid)"
    fi
    rm -f "$pid_file"
}

stop() {
    stop_one "$DIR/slurmd.pid" slurmd
    stop_one "$DIR/slurmctld.pid" slurmctld
    stop_one "$MUNGE/munged.pid" munged
}

status() {
    local all=0
    for pid_file in "$MUNGE/munged.pid" "$DIR/slurmctld.pid" "$DIR/slurmd.pid"; do
        if running "$pid_file"; then
            echo "running: $(basename "$pid_file" .pid) (pid $(cat "$pid_file"))"
        else
            echo "stopped: $(basename "$pid_file" .pid)"
            all=1
        fi
    done
    echo "export SLURM_CONF=$CONF"
    return $all
}

case "${1:-start}" in
start) start ;;
stop) stop ;;
status) status ;;
*)
    say "usage: $0 [start|stop|status]"
    exit 2
    ;;
esac
