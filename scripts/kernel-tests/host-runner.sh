#!/bin/bash
# Runs on the host while the QEMU guest runs: a guest test that needs a client on the host (e.g.
# `motionbatch devices -u ip:127.0.0.1:PORT` against iiod in the guest) writes
# $MB_RESULTS/NAME.host-request; this runner then runs scripts/kernel-tests/host/NAME.sh (bounded
# by 90 s) and writes $MB_RESULTS/NAME.host-done, which the guest waits for. Ends when the guest
# runner is done or QEMU exited (kernel-tests.sh also kills it).
# Environment: MB_BIN (host binary), MB_RESULTS, MB_ROOT, MB_IIOD_PORT (host port forwarded to the guest's 30431).
export MB_BIN MB_RESULTS MB_ROOT MB_IIOD_PORT
while [ ! -e "$MB_RESULTS/runner-done" ] && [ ! -e "$MB_RESULTS/qemu-exited" ]; do
    # Requests of --repeat's rounds come from $MB_RESULTS/round-N: the host script gets that folder.
    for req in "$MB_RESULTS"/*.host-request "$MB_RESULTS"/round-*/*.host-request; do
        [ -e "$req" ] || continue
        dir=$(dirname "$req")
        name=$(basename "$req" .host-request)
        mv "$req" "$dir/$name.host-running"
        script="$MB_ROOT/scripts/kernel-tests/host/$name.sh"
        echo "host-runner: $name ($dir)"
        if [ -x "$script" ]; then
            MB_RESULTS="$dir" timeout -k 5 90 bash "$script"; echo "host-runner: $name exit $?"
        else
            echo "host-runner: no $script"
        fi
        touch "$dir/$name.host-done"
    done
    sleep 0.2
done
