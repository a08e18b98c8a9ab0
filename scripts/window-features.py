#!/usr/bin/env python3
"""Offline diagnostic (issue 23): the activity classifier's window features, recomputed in numpy
for 4 s windows of real recordings, summarised per set as 10th percentile / median / 90th
percentile. It shows why short turning walks (spsw) and pedalling (ST biking) cannot be told apart
by the current features (docs/activity-classifier.md, "Why spsw fails").

    python3 scripts/window-features.py [DATASETS_DIR]

A re-implementation for inspection only (the product computes them in Swift:
ActivityFeatures.swift): 40 ms bins interpolated onto a grid, gravity = window mean, vertical =
projection on it, periodicity = highest autocorrelation peak of the vertical at lags 0.24-1.6 s
reached by a dip of at least 0.3. Needs numpy.
"""
import csv, glob, math, sys
import numpy as np

def load(p):
    rows = list(csv.DictReader(open(p)))
    t = np.array([float(r['time_s']) for r in rows])
    a = np.array([[float(r['accel_x']), float(r['accel_y']), float(r['accel_z'])] for r in rows])
    return t, a, [r.get('label', '') for r in rows]

def grid(t, a):
    k = np.floor(t / 0.04).astype(int); ks = np.arange(k[0], k[-1] + 1)
    out = np.zeros((len(ks), 3))
    for c in range(3):
        s = np.bincount(k - k[0], weights=a[:, c]); n = np.bincount(k - k[0]); m = n > 0
        out[:, c] = np.interp(ks, ks[m], s[m] / n[m])
    return ks, out

def periodicity(v):
    best, lowest, prev, rising = 0.0, 1.0, 1.0, False
    for lag in range(1, 42):
        x, y = v[:-lag], v[lag:]; d = math.sqrt((x * x).sum() * (y * y).sum()); r = (x * y).sum() / d if d > 1e-12 else 0
        if rising and r < prev and lag - 1 >= 6 and prev - lowest >= 0.3 and prev > best: best = prev
        rising = r > prev; lowest = min(lowest, r); prev = r
    return best

def windows(files, label=None, step=10):
    out = []
    for f in files:
        t, a, lab = load(f); ks, A = grid(t, a)
        first = {}
        for ti, l in zip(t, lab): first.setdefault(int(math.floor(ti / 0.04)), l)
        for end in range(100, len(A) + 1, step):
            if label and not all(first.get(k, '') == label for k in ks[end - 100:end]): continue
            w = A[end - 100:end]; mu = w.mean(0); u = mu / np.linalg.norm(mu); v = (w - mu) @ u
            m = np.linalg.norm(w, axis=1); s = v.std()
            if s < 1e-6: continue
            q = [m[i * 25:(i + 1) * 25].std() for i in range(4)]
            mm = m - m.mean()
            out.append(dict(vertical=s, motion=m.std(), floor=min(q), periodicity=periodicity(v),
                            kurtosis=((v / s) ** 4).mean(), crest=np.abs(v).max() / s,
                            jerk=np.diff(mm).std() / mm.std() if mm.std() > 1e-9 else 0))
    return out

def main():
    d = sys.argv[1] if len(sys.argv) > 1 else '../shared/datasets'
    sets = [
        ('ST biking (pocket)', [d + '/activity/st/mobile_biking.csv'], None, 10),
        ('ST driving (pocket)', [d + '/activity/st/mobile_driving.csv'], None, 10),
        ('ST walking (pocket)', [d + '/activity/st/mobile_walking.csv'], None, 10),
        ('Bangle drive', [d + '/steps/bangle/0_HughB-drive-36min-0.csv'], None, 50),
        ('Bangle train', [d + '/steps/bangle/0_HughB_train_journey_b31.csv'], None, 50),
        ('spsw pocket walking', sorted(glob.glob(d + '/activity/spsw/*_sp.csv')), 'walking', 10),
        ('spsw wrist walking', sorted(glob.glob(d + '/activity/spsw/*_sw.csv')), 'walking', 10),
        ('HAPT walking', sorted(glob.glob(d + '/activity/hapt/user0[1-4]*.csv')), 'walking', 30),
        ('Bangle walks', [d + '/steps/bangle/150.csv', d + '/steps/bangle/100_1.csv'], None, 10),
    ]
    keys = ['vertical', 'motion', 'floor', 'periodicity', 'kurtosis', 'crest', 'jerk']
    print('set'.ljust(22) + 'windows  ' + '  '.join(k.ljust(16) for k in keys))
    for name, files, label, step in sets:
        w = windows(files, label, step)
        if not w: print(name.ljust(22) + '0'); continue
        cells = []
        for k in keys:
            x = np.array([o[k] for o in w])
            cells.append(('%.2f/%.2f/%.2f' % (np.percentile(x, 10), np.median(x), np.percentile(x, 90))).ljust(16))
        print(name.ljust(22) + str(len(w)).ljust(9) + '  '.join(cells))

if __name__ == '__main__':
    main()
