#!/usr/bin/env bash
# The fleet scale benchmark (docs/fleet.md, "Scale"): a Mosquitto on a free loopback port with the
# settings of contrib/mosquitto/mosquitto.conf (anonymous, no ACL: a lab), then
#   motionbatch bench fleet URL --boards N --seconds S
# (N simulated boards in one process, each its own libmosquitto client and outbox, one batch a
# second, into one collector on its own thread), then the broker is stopped. Bounded: the
# benchmark stops by itself (S s of sending, at most 30 s of drain).
#
#   contrib/mosquitto/bench-fleet.sh [BOARDS] [SECONDS] [--json]   (default: 1000 60)
#
# Needs the release build (swift build -c release --product motionbatch; MB=path to override).
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-1000}"
S="${2:-60}"
shift $(( $# < 2 ? $# : 2 )) || true
MB="${MB:-$PWD/.build/release/motionbatch}"
work=$(mktemp -d)
trap 'kill "$broker" 2>/dev/null; wait "$broker" 2>/dev/null; rm -rf "$work"' EXIT
# A broker and a benchmark each need a descriptor per board (and the boards one per outbox).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
need=$(( 2 * N + 64 ))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  echo "bench-fleet: ulimit -n is $(ulimit -n), $N boards need about $need descriptors" >&2; exit 1
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
grep -vE '^(#|$|persistence_location|password_file|acl_file|allow_anonymous|listener|cafile|certfile|keyfile)' contrib/mosquitto/mosquitto.conf > "$work/mosquitto.conf"
printf 'persistence_location %s/\nlog_dest file %s/broker.log\nallow_anonymous true\nuser %s\nlistener %s 127.0.0.1\nmax_connections -1\n' \
  "$work" "$work" "$(id -un)" "$port" >> "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" 2> "$work/broker.err" & broker=$!
sleep 1
kill -0 "$broker" || { cat "$work/broker.err" >&2; exit 1; }
echo "bench-fleet: $N boards x $S s into mosquitto on 127.0.0.1:$port; load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
"$MB" bench fleet "mqtt://127.0.0.1:$port/fleet" --boards "$N" --seconds "$S" --dir "$work/bench" "$@" && rc=0 || rc=$?
echo "bench-fleet: the broker logged $(grep -c "Outgoing messages are being dropped" "$work/broker.log" || true) times that it dropped messages for a client (max_queued_messages)" >&2
exit $rc
