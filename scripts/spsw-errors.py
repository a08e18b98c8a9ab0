#!/usr/bin/env python3
"""Offline diagnostic: where the activity classifier gets spsw's still/walking labels wrong, per
recording, as `eval activity` judges them (still and walking labels only, 1 s trimmed at both
ends of every label run). Runs `motionbatch activity FILE --json` on each recording of one
device (sp = trouser pocket, sw = wrist) and prints the seconds wrong, the first and last wrong
sample and the segments, worst first, then the total. The in-sample configuration (defaults),
which every leave-one-source-out fold chooses (docs/activity-classifier.md).

    swift build -c release
    python3 scripts/spsw-errors.py [sp|sw] [DATASETS_DIR] [MOTIONBATCH]
"""
import csv, glob, json, os, subprocess, sys

device = sys.argv[1] if len(sys.argv) > 1 else 'sp'
root = sys.argv[2] if len(sys.argv) > 2 else '../shared/datasets'
binary = sys.argv[3] if len(sys.argv) > 3 else '.build/release/motionbatch'
results, total = [], 0.0
for f in sorted(glob.glob(os.path.join(root, 'activity/spsw/*_%s.csv' % device))):
    rows = list(csv.DictReader(open(f)))
    t = [float(r['time_s']) for r in rows]
    lab = [r['label'] for r in rows]
    segs = json.loads(subprocess.run([binary, 'activity', f, '--json'], capture_output=True, text=True, check=True).stdout)['activity']
    def predicted(x):
        for s in segs:
            if s['start_s'] <= x < s['end_s']:
                return s['label']
        return segs[-1]['label']
    # Label runs: [start index, end index).
    runs, i = [], 0
    while i < len(lab):
        j = i
        while j < len(lab) and lab[j] == lab[i]:
            j += 1
        runs.append((i, j)); i = j
    wrong, where = 0.0, []
    for a, b in runs:
        if lab[a] not in ('still', 'walking'):
            continue
        start, end = t[a], t[b] if b < len(t) else t[-1]
        for k in range(a, min(b, len(t) - 1)):
            if t[k] < start + 1 or t[k] > end - 1:
                continue
            p = predicted(t[k])
            if p != lab[k]:
                wrong += t[k + 1] - t[k]; where.append((round(t[k], 2), lab[k], p))
    total += wrong
    if wrong > 0:
        results.append((wrong, os.path.basename(f), where[0], where[-1], [(s['start_s'], s['end_s'], s['label']) for s in segs]))
for r in sorted(results, reverse=True):
    print('%.2f s  %s  first %s  last %s  segments %s' % r)
print('total %.2f s wrong' % total)
