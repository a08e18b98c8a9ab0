#!/usr/bin/env python3
"""Offline diagnostic: can the arm movements of a wearer settling into a car be told from wrist
walks? Per 4 s window (every 0.4 s, the 25 Hz grid), recomputed in numpy as the classifier's
features are (ActivityFeatures.swift):
  - tilt: the largest angle between a 1 s quarter's mean acceleration and the window's mean;
  - where the short-gait rule fires (periodicity of the smoothed vertical over the last 2.4 s
    >= 0.5, its std >= 1 m/s2), the periodicity of the smoothed |a| over the same 2.4 s: a
    rhythm of the acceleration's size, which foot strikes make and turning the device does not.
Sets: the Bangle drive's first 45 s and whole, the train, the ST logs, the numbered Bangle.js
walks, spsw's walking labels (wrist, pocket) and HAPT's (first 20 files). Prints percentiles
(docs/activity-classifier.md, "Limits"). A re-implementation for inspection only; needs numpy.

    python3 scripts/handling-features.py [DATASETS_DIR]
"""
import csv, glob, math, sys
import numpy as np

D = sys.argv[1] if len(sys.argv) > 1 else '../shared/datasets'

def load(f):
    rows = list(csv.reader(open(f))); h = rows[0]
    ix = [h.index(c) for c in ('time_s', 'accel_x', 'accel_y', 'accel_z')] if 'accel_x' in h else [0, 1, 2, 3]
    lab = [r[h.index('label')] for r in rows[1:]] if 'label' in h else None
    arr = np.array([[float(r[i]) for i in ix] for r in rows[1:]])
    return arr[:, 0], arr[:, 1:4], lab

def grid(t, a):
    k = np.floor(t / 0.04).astype(int); ks = np.arange(k[0], k[-1] + 1); out = np.zeros((len(ks), 3))
    for c in range(3):
        s = np.bincount(k - k[0], weights=a[:, c]); n = np.bincount(k - k[0]); m = n > 0
        out[:, c] = np.interp(ks, ks[m], s[m] / n[m])
    return ks, out

def periodicity(v, maxlag=40):
    best, lowest, prev, rising = 0.0, 1.0, 1.0, False
    for lag in range(1, maxlag + 2):
        x, y = v[:-lag], v[lag:]; d = math.sqrt((x * x).sum() * (y * y).sum()); r = (x * y).sum() / d if d > 1e-12 else 0
        if rising and r < prev and lag - 1 >= 6 and prev - lowest >= 0.3 and prev > best: best = prev
        rising = r > prev; lowest = min(lowest, r); prev = r
    return best

def smooth(x): return np.convolve(x, [.25, .5, .25], 'same')

def windows(f, label=None, until=None):
    t, a, lab = load(f)
    if until is not None:
        m = t < until; t, a = t[m], a[m]
    ks, A = grid(t, a); first = {}
    if label and lab:
        for ti, l in zip(t, lab): first.setdefault(int(math.floor(ti / 0.04)), l)
    tilts, rhythms = [], []
    for end in range(100, len(A) + 1, 10):
        if label and not all(first.get(k, '') == label for k in ks[end - 100:end]): continue
        w = A[end - 100:end]; mu = w.mean(0); u = mu / np.linalg.norm(mu); v = (w - mu) @ u
        q = [w[i * 25:(i + 1) * 25].mean(0) for i in range(4)]
        tilts.append(max(math.degrees(math.acos(min(1, np.dot(x, u) / np.linalg.norm(x)))) for x in q))
        s = v[-60:]; m = np.linalg.norm(w[-60:], axis=1)
        if periodicity(smooth(s - s.mean())) >= 0.5 and s.std() >= 1.0:
            rhythms.append(periodicity(smooth(m - m.mean())))
    return tilts, rhythms

def show(name, parts):
    tilts = [x for p in parts for x in p[0]]; rhythms = [x for p in parts for x in p[1]]
    line = name.ljust(26) + ' tilt (50/90/95/99 %%) %s' % ' '.join('%5.1f' % np.percentile(tilts, q) for q in (50, 90, 95, 99))
    if rhythms: line += '   |a| rhythm where short gait fires, n=%d (5/10/50 %%) %s' % (len(rhythms), ' '.join('%.2f' % np.percentile(rhythms, q) for q in (5, 10, 50)))
    print(line)

drive = D + '/steps/bangle/0_HughB-drive-36min-0.csv'
show('drive, first 45 s', [windows(drive, until=45)])
show('drive, whole', [windows(drive)])
show('train', [windows(D + '/steps/bangle/0_HughB_train_journey_b31.csv')])
for p in ['mobile_driving', 'mobile_biking', 'mobile_walking', 'wrist_walking']:
    show('ST ' + p, [windows(D + '/activity/st/%s.csv' % p)])
show('Bangle.js numbered walks', [windows(f) for f in sorted(glob.glob(D + '/steps/bangle/*.csv')) if 'HughB' not in f])
for dev, name in [('sw', 'spsw wrist walking'), ('sp', 'spsw pocket walking')]:
    show(name, [windows(f, 'walking') for f in sorted(glob.glob(D + '/activity/spsw/*_%s.csv' % dev))])
show('HAPT walking', [windows(f, 'walking') for f in sorted(glob.glob(D + '/activity/hapt/*.csv'))[:20]])
