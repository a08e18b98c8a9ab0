#!/usr/bin/env bash
# A real single-node Slurm cluster runs contrib/slurm/epochs-array.sbatch as a job array over real
# recordings, and the merge of its shards must equal a local run byte for byte:
#   1. starts its own munged (a key of its own, socket, pid, seed and log in a temporary directory),
#      slurmctld and slurmd (slurm.conf in that directory: ports free at run time, this machine's
#      CPUs and memory, proctrack/linuxproc and task/none, so no systemd or cgroups are needed);
#   2. waits until sinfo shows the node idle, then
#      sbatch --wait --array=0-3 contrib/slurm/epochs-array.sbatch OUTDIR INPUT...
#      over the Bangle.js folder and the Oxford recordings (${MOTIONBATCH_DATASETS:-../shared/datasets}
#      /steps: 67 recordings, 83 MB), given in byte order;
#   3. checks that the 4 array tasks ran on the node and each wrote a non-empty shard, then that
#      'motionbatch epochs --merge OUTDIR/epochs-*.csv' equals 'motionbatch epochs --csv INPUT...' (cmp).
# Every wait is bounded (the whole test well under 4 minutes); on every exit path the daemons it
# started are stopped by pid (and any process still carrying its SLURM_CONF, e.g. a slurmstepd)
# and the temporary directory is removed. Nothing outside that directory is written.
# Skips (exit 0, 'skipped: ...') without the datasets, the Slurm/MUNGE binaries or root.
# Usage: scripts/slurm-test.sh [--bin PATH] [--keep]   (--keep: leave the temporary directory;
#        SLURM_TEST_JOB_TIMEOUT: seconds allowed for the job array, default 150)
# Packages: scripts/install-deps.sh --slurm (slurmctld slurmd slurm-client munge).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN="$ROOT/.build/debug/motionbatch"
KEEP=0
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) BIN=$2; shift 2 ;;
        --keep) KEEP=1; shift ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "slurm-test: unknown argument '$1'" >&2; exit 64 ;;
    esac
done
cd "$ROOT" || exit 1
SBATCH_SCRIPT="$ROOT/contrib/slurm/epochs-array.sbatch"
DATASETS=${MOTIONBATCH_DATASETS:-../shared/datasets}
TASKS=4

skip() { echo "slurm-test: skipped: $*"; exit 0; }
[ -d "$DATASETS/steps/oxford" ] && [ -d "$DATASETS/steps/bangle" ] \
    || skip "no datasets at $DATASETS/steps/{oxford,bangle}"
for tool in munged slurmctld slurmd sbatch sinfo scontrol scancel; do
    command -v "$tool" >/dev/null || skip "$tool not installed (scripts/install-deps.sh --slurm)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root (the daemons run as SlurmUser=root)"
case "$BIN" in /*) ;; *) BIN="$ROOT/$BIN" ;; esac
STARTED=$SECONDS
DEADLINE=$((SECONDS + 200))   # every wait below ends by then; stopping everything takes < 25 s more
left() { local l=$((DEADLINE - SECONDS)); [ "$l" -lt "$1" ] || l=$1; [ "$l" -gt 1 ] || l=1; echo "$l"; }

T=$(mktemp -d /tmp/slurm-test.XXXXXX)   # short: the MUNGE socket path must fit sockaddr_un
chmod 0700 "$T"
mkdir -p "$T/munge" "$T/ctld" "$T/spool" "$T/out" "$T/logs"
chmod 0700 "$T/munge"
# Run inside a real cluster's job or with sbatch defaults set, their variables would steer this
# cluster's commands (partition, account, ...): only this test's SLURM_CONF counts.
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN|SQUEUE|SINFO|SCONTROL)_')
export SLURM_CONF="$T/slurm.conf"
MUNGE_SOCKET="$T/munge/munge.socket"
PIDS=()          # daemons started here, stopped in reverse order
CHILD=""         # the command run_waited is waiting for
JOB_TIMEOUT=${SLURM_TEST_JOB_TIMEOUT:-150}
JOBID=""

log_tails() {
    local f
    # (the daemons' stderr repeats their log files; it matters when they die before logging)
    for f in "$T/munge/munged.log" "$T/slurmctld.log" "$T/slurmd.log" "$T"/*.stderr "$T"/logs/*; do
        [ -s "$f" ] || continue
        echo "----- tail of ${f#"$T"/}" >&2
        case "$f" in *.stderr) tail -n 6 "$f" ;; *) tail -n 25 "$f" ;; esac >&2
    done
}

# Every process whose environment carries this test's SLURM_CONF (slurmstepd, job scripts,
# the daemons themselves): only what this run started.
our_processes() {
    local e p
    for e in /proc/[0-9]*/environ; do
        p=${e#/proc/}; p=${p%/environ}
        [ "$p" = $$ ] && continue
        { tr "\\0" "\\n" < "$e"; } 2>/dev/null | grep -qxF "SLURM_CONF=$SLURM_CONF" && echo "$p"
    done
}

stop_pid() {   # TERM, up to 5 s, then KILL
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for i in $(seq 1 25); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return 0
}

cleanup() {
    local status=$? i p
    trap - EXIT INT TERM
    [ -n "$CHILD" ] && stop_pid "$CHILD"
    if [ -n "$JOBID" ] && [ -S "$MUNGE_SOCKET" ]; then
        timeout 5 scancel "$JOBID" >/dev/null 2>&1
    fi
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        stop_pid "${PIDS[i]}"
    done
    for i in 1 2; do   # twice: a process may fork between the scan and the kill
        for p in $(our_processes); do
            kill -KILL "$p" 2>/dev/null
        done
    done
    if [ "$KEEP" = 1 ]; then
        echo "slurm-test: kept $T" >&2
    else
        rm -rf "$T"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
    echo "slurm-test: FAIL: $*" >&2
    log_tails
    echo "slurm-test: 0 passed, 1 failed"
    exit 1
}

# Runs a command in the background and waits for it: a signal to this script is handled at once
# (bash defers its traps until a foreground command ends), and cleanup stops the command.
run_waited() {
    local status
    "$@" &
    CHILD=$!
    wait "$CHILD"
    status=$?
    CHILD=""
    return $status
}

# Waits up to $1 seconds until the command succeeds.
wait_for() {
    local limit=$1 deadline
    shift
    deadline=$((SECONDS + $(left "$limit")))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.5
    done
}

# Two TCP ports that nothing on this machine uses, below the ephemeral range.
free_ports() {
    local used port n=0 tries=0
    used=$(awk 'NR > 1 { split($2, a, ":"); print strtonum("0x" a[2]) }' /proc/net/tcp /proc/net/tcp6 2>/dev/null | sort -u)
    while [ $n -lt 2 ] && [ $tries -lt 1000 ]; do
        tries=$((tries + 1))
        port=$((20000 + RANDOM % 12000))
        grep -qx "$port" <<< "$used" && continue
        used+=$'\n'"$port"
        echo "$port"
        n=$((n + 1))
    done
}

[ -x "$BIN" ] || fail "no motionbatch binary at $BIN (swift build first, or --bin PATH)"
timeout 20 "$BIN" epochs --help >/dev/null 2>&1 || fail "$BIN has no working 'epochs' subcommand"

# --- inputs: the Bangle.js folder (expanded by motionbatch before sharding) and the Oxford walks
# as files (not their *.steps.csv truth files), absolute and in byte order: a local run prints the
# files in the order given, the merge in byte order, and the two agree only when those are the same
# (as for a folder, which expands in byte order).
DATASETS=$(cd "$DATASETS" && pwd)
mapfile -t INPUTS < <(
    for f in "$DATASETS"/steps/bangle "$DATASETS"/steps/oxford/*.csv; do
        case "$f" in *.steps.csv) ;; *) printf '%s\n' "$f" ;; esac
    done | LC_ALL=C sort)
RECORDINGS=$(( ${#INPUTS[@]} - 1 + $(find "$DATASETS/steps/bangle" -maxdepth 1 -name '*.csv' | wc -l) ))
[ "$RECORDINGS" -ge $((2 * TASKS)) ] || fail "only $RECORDINGS recordings under $DATASETS/steps"

# --- MUNGE: own key, socket, pid, seed and log (--force: /tmp is world-writable)
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 0600 "$T/munge/munge.key"
munged --foreground --force --socket="$MUNGE_SOCKET" --key-file="$T/munge/munge.key" \
    --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/munged.seed" \
    --log-file="$T/munge/munged.log" --num-threads=2 </dev/null >"$T/munged.stderr" 2>&1 &
PIDS+=($!)
munge_ok() { timeout 5 munge -n -S "$MUNGE_SOCKET" | timeout 5 unmunge -S "$MUNGE_SOCKET"; }
wait_for 15 munge_ok || fail "munged did not answer on $MUNGE_SOCKET"

# --- slurm.conf
read -r CTLD_PORT SLURMD_PORT < <(free_ports | xargs)
[ -n "${SLURMD_PORT:-}" ] || fail "no free ports found"
HOST=$(hostname -s)
NODE_LINE=$(slurmd -C 2>/dev/null | grep '^NodeName=' | head -n 1)
if [ -z "$NODE_LINE" ]; then
    NODE_LINE="NodeName=$HOST CPUs=$(nproc) RealMemory=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)"
fi
NODE=${NODE_LINE%% *}
NODE=${NODE#NodeName=}
cat > "$SLURM_CONF" <<EOF
# Written by scripts/slurm-test.sh: a single-node cluster in $T
ClusterName=motionbatch-test
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MinJobAge=16
MailProg=/bin/true
StateSaveLocation=$T/ctld
SlurmdSpoolDir=$T/spool/%n
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
$NODE_LINE NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=00:10:00 State=UP
EOF

# --- slurmctld and slurmd in the foreground (-D), so their pids are ours
slurmctld -D -i -f "$SLURM_CONF" </dev/null >"$T/slurmctld.stderr" 2>&1 &
PIDS+=($!)
wait_for 30 timeout 10 scontrol ping || fail "slurmctld did not answer on port $CTLD_PORT"
mkdir -p "$T/spool/$NODE"
slurmd -D -N "$NODE" -f "$SLURM_CONF" </dev/null >"$T/slurmd.stderr" 2>&1 &
PIDS+=($!)
node_idle() { [ "$(timeout 10 sinfo -h -n "$NODE" -o %t)" = idle ]; }
wait_for 60 node_idle || fail "node $NODE not idle: $(timeout 10 sinfo -h -N -o '%N %t %E' 2>&1)"
echo "slurm-test: node $NODE idle after $((SECONDS - STARTED)) s (ports $CTLD_PORT, $SLURMD_PORT)"

# --- the job array, exactly as a user submits it
cd "$T" || fail "cannot enter $T"
export MOTIONBATCH="$BIN"
unset EPOCHS_OPTIONS EPOCHS_SHARDS
SUBMITTED=$SECONDS
# sbatch --wait in the background, watched: a node that Slurm drains (a job that cannot start there,
# e.g. a proctrack or task plugin that fails) would otherwise keep the array pending until the timeout.
timeout "$(left "$JOB_TIMEOUT")" sbatch --wait --parsable --array=0-$((TASKS - 1)) --time=00:05:00 \
    --output="$T/logs/task-%a.out" "$SBATCH_SCRIPT" "$T/out" "${INPUTS[@]}" > "$T/sbatch.out" 2>"$T/sbatch.err" &
CHILD=$!
while kill -0 "$CHILD" 2>/dev/null; do
    state=$(timeout 10 sinfo -h -n "$NODE" -o '%t %E' 2>/dev/null)
    case "$state" in
        drain*|drng*|down*|fail*) JOBID=$(head -n 1 "$T/sbatch.out" | cut -d';' -f1)
            fail "node $NODE went '$state' while job array $JOBID ran" ;;
    esac
    sleep 1
done
wait "$CHILD"
SBATCH_STATUS=$?
CHILD=""
JOBID=$(head -n 1 "$T/sbatch.out" | cut -d';' -f1)
[ $SBATCH_STATUS -eq 124 ] && fail "job array $JOBID not done in time (SLURM_TEST_JOB_TIMEOUT=$JOB_TIMEOUT s)"
[ $SBATCH_STATUS -eq 0 ] || fail "sbatch --wait exited $SBATCH_STATUS (the highest exit status of the tasks): $(
    grep -o "_job_complete: JobId=${JOBID}_[0-9]*([0-9]*) WEXITSTATUS [1-9][0-9]*" "$T/slurmctld.log" | sed 's/^_job_complete: //' | xargs
    cat "$T/sbatch.err")"
JOBID_DONE=$JOBID
JOBID=""   # finished: nothing to cancel
echo "slurm-test: job array $JOBID_DONE ($TASKS tasks, $RECORDINGS recordings) done in $((SECONDS - SUBMITTED)) s"

# --- each task ran on the node and wrote its shard, nothing partial was left
for ((i = 0; i < TASKS; i++)); do
    [ -f "$T/logs/task-$i.out" ] || fail "array task $i left no output log (did it run?)"
    [ "$(wc -l < "$T/out/epochs-$i.csv" 2>/dev/null || echo 0)" -ge 2 ] \
        || fail "array task $i wrote no rows to epochs-$i.csv"
    grep -q "Allocate JobId=${JOBID_DONE}_$i(.*NodeList=$NODE " "$T/slurmctld.log" \
        || fail "slurmctld did not record task ${JOBID_DONE}_$i on node $NODE"
    grep -q "_job_complete: JobId=${JOBID_DONE}_$i(.*WEXITSTATUS 0" "$T/slurmctld.log" \
        || fail "slurmctld did not record task ${JOBID_DONE}_$i ending with status 0"
done
shards=("$T"/out/epochs-*.csv)
[ ${#shards[@]} -eq $TASKS ] || fail "expected $TASKS shard files, found ${#shards[@]}: ${shards[*]##*/}"
leftovers=$(find "$T/out" -name '.*' -type f)
[ -z "$leftovers" ] || fail "temporary files left in OUTDIR: $leftovers"

# --- merge == local run, byte for byte
run_waited timeout "$(left 60)" "$BIN" epochs --merge "${shards[@]}" > "$T/merged.csv" 2>"$T/logs/merge.err" \
    || fail "epochs --merge failed: $(head -n 5 "$T/logs/merge.err")"
run_waited timeout "$(left 90)" "$BIN" epochs --csv "${INPUTS[@]}" > "$T/local.csv" 2>"$T/logs/local.err" \
    || fail "local epochs run failed: $(head -n 5 "$T/logs/local.err")"
[ "$(wc -l < "$T/local.csv")" -ge 2 ] || fail "the local run printed no rows"
if ! cmp "$T/merged.csv" "$T/local.csv"; then
    diff "$T/merged.csv" "$T/local.csv" | head -n 20 >&2
    fail "the merged shards differ from the local run"
fi
echo "slurm-test: merged $TASKS shards = local run ($(($(wc -l < "$T/local.csv") - 1)) rows), $((SECONDS - STARTED)) s in all"
echo "slurm-test: 1 passed, 0 failed"
