#!/usr/bin/env bash
# The issue-24 reproduction, rerunnable: a Mosquitto on a free loopback port with the settings of
# contrib/mosquitto/mosquitto.conf (persistence, max_queued_messages 1000; anonymous, no ACL: a
# lab), a collector that creates its session and leaves, N boards replaying an Oxford walk while
# it is away, the collector back, the boards run again (a short walk), then the counts.
#
#   contrib/mosquitto/collector-away.sh [collector|broker] [BOARDS]   (default: collector 10)
#
# Needs the built motionbatch (.build/debug/motionbatch) and ../shared/datasets. Prints the
# messages the boards printed (--ndjson) and the messages collected, per run and in all.
set -euo pipefail
cd "$(dirname "$0")/../.."
ACK="${1:-collector}"
N="${2:-10}"
MB="$PWD/.build/debug/motionbatch"
WALK="${MOTIONBATCH_DATASETS:-$PWD/../shared/datasets}/steps/oxford/Nexus_Jamie_Hard_InHand_1.csv"
work=$(mktemp -d)
trap 'kill "$broker" 2>/dev/null; wait "$broker" 2>/dev/null; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
grep -vE '^(#|$|persistence_location|password_file|acl_file|allow_anonymous|listener|cafile|certfile|keyfile)' contrib/mosquitto/mosquitto.conf > "$work/mosquitto.conf"
printf 'persistence_location %s/\nlog_dest file %s/broker.log\nallow_anonymous true\nuser %s\nlistener %s 127.0.0.1\n' "$work" "$work" "$(id -un)" "$port" >> "$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" 2> "$work/broker.err" & broker=$!
sleep 1
URL="mqtt://127.0.0.1:$port/fleet"
cd "$work"
"$MB" collect "$URL" --output-dir collected --client-id away --duration 2 2> first.err
pids=()
for i in $(seq 1 "$N"); do "$MB" replay "$WALK" --publish "$URL" --board-id "a$i" --pace fast --ndjson --ack "$ACK" --outbox "a$i.outbox" > "a$i-1.out" 2> "a$i-1.err" & pids+=($!); done
wait "${pids[@]}"
python3 - > walk.csv <<'PY'
import math
print("time_s,accel_x,accel_y,accel_z")
for i in range(300):
    t = i / 50
    print(f"{t},{0.5*math.sin(2*math.pi*t)},0.3,{9.81+3*math.sin(4*math.pi*t)+0.4*math.sin(8*math.pi*t+0.3)}")
PY
"$MB" collect "$URL" --output-dir collected --client-id away --duration 20 2> second.err & collector=$!
sleep 2
pids=()
for i in $(seq 1 "$N"); do "$MB" replay walk.csv --publish "$URL" --board-id "a$i" --pace realtime --ndjson --ack "$ACK" --outbox "a$i.outbox" > "a$i-2.out" 2> "a$i-2.err" & pids+=($!); done
wait "${pids[@]}"
kill -TERM "$collector"; wait "$collector" || true
sent1=$(cat a*-1.out | wc -l); sent2=$(cat a*-2.out | wc -l)
got=$(cat collected/a*/*.ndjson | wc -l)
dropped=$(grep -c "Outgoing messages are being dropped" broker.log || true)
echo "ack $ACK, $N boards: sent $sent1 while the collector was away + $sent2 after; collected $got of $((sent1 + sent2)) ($(( sent1 + sent2 - got )) lost); broker log lines 'Outgoing messages are being dropped': $dropped"
"$MB" collect report collected | grep -E '^missing:' | head -5 || true
