#!/usr/bin/env bash
# Regenerates the excerpts in Recordings/ from the UCI HAPT recordings in ../shared/datasets
# (or $MOTIONBATCH_DATASETS) with `motionbatch convert`. See Recordings/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${MOTIONBATCH_DATASETS:-../shared/datasets}/activity/hapt"
[ -d "$DATA" ] || { echo "error: $DATA not found (set MOTIONBATCH_DATASETS)" >&2; exit 1; }
swift build --product motionbatch >&2
BIN="$(swift build --show-bin-path)/motionbatch"

excerpt() {  # excerpt SOURCE FROM TO OUT CONTENT
    local src="$1" from="$2" to="$3" out="$4" content="$5"
    "$BIN" convert "$DATA/$src" "Recordings/$out" --from "$from" --to "$to" --force \
        --set "device=Samsung Galaxy S II smartphone, waist-mounted (UCI HAPT)" \
        --set "source=UCI HAPT ${src%.csv} (shared datasets activity/hapt/$src), excerpt t=$from-$to s" \
        --set "clock=relative: seconds from the start of the HAPT sequence (timestamps kept from the source)" \
        --set "requested_hz=50" --set "actual_hz=50" \
        --set "batching=none (smartphone log, not FIFO-batched)" \
        --set "start_utc=unknown (not published by the dataset)" \
        --set "labels=video-annotated per-sample activity (UCI HAPT); empty = unlabelled" \
        --set "license=CC BY 4.0; Reyes-Ortiz, Oneto, Sama, Parra, Anguita: Transition-Aware Human Activity Recognition Using Smartphones, Neurocomputing 2016; UCI Machine Learning Repository" \
        --set "content=$content"
}

excerpt user01_seq0.csv 150 230 hapt-user01-walking.csv "walking on level ground, four straight walks with short unlabelled turns between them"
excerpt user03_seq0.csv 280 352 hapt-user03-stairs.csv "walking upstairs and downstairs, alternating, with unlabelled pauses"
excerpt user05_seq1.csv 46 235 hapt-user05-mixed.csv "standing, lying, sitting, postural transitions between them, walking, walking downstairs and upstairs"
ls -l Recordings/*.csv
