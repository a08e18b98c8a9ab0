#!/usr/bin/env python3
"""Offline diagnostic: the rotational rhythm of the activity classifier's rotational-gait rule,
recomputed in numpy over 2.4 s windows of the recordings with a gyroscope (spsw wrist and pocket,
HAPT waist), by label, as 10th percentile / median / 90th percentile and the share of windows at
or above 0.5 (docs/activity-classifier.md, "Rotational gait").

    python3 scripts/rotation-features.py [DATASETS_DIR]

A re-implementation for inspection only (the product computes it in Swift:
ActivityFeatures.principalRotation and ActivityFeatures.periodicity): 40 ms bins interpolated onto
a grid, the bias-removed angular rate projected on its principal axis (the dominant eigenvector
of its covariance), periodicity = the highest autocorrelation peak at lags 0.24-1.6 s reached by a
dip of at least 0.3. 'vector' is the autocorrelation of all three axes together, for comparison.
Needs numpy.
"""
import csv, glob, math, sys
import numpy as np

def load(p):
    rows = list(csv.DictReader(open(p)))
    t = np.array([float(r['time_s']) for r in rows])
    a = np.array([[float(r[k]) for k in ('gyro_x', 'gyro_y', 'gyro_z')] for r in rows])
    return t, a, [r.get('label', '') for r in rows]

def grid(t, a):
    k = np.floor(t / 0.04).astype(int); ks = np.arange(k[0], k[-1] + 1)
    out = np.zeros((len(ks), a.shape[1]))
    for c in range(a.shape[1]):
        s = np.bincount(k - k[0], weights=a[:, c]); n = np.bincount(k - k[0]); m = n > 0
        out[:, c] = np.interp(ks, ks[m], s[m] / n[m])
    return ks, out

def periodicity(x):
    best, lowest, prev, rising = 0.0, 1.0, 1.0, False
    for lag in range(1, min(41, len(x) - 7) + 1):
        u, v = x[:-lag], x[lag:]; d = math.sqrt((u * u).sum() * (v * v).sum()); r = (u * v).sum() / d if d > 1e-12 else 0
        if rising and r < prev and lag - 1 >= 6 and prev - lowest >= 0.3 and prev > best: best = prev
        rising = r > prev; lowest = min(lowest, r); prev = r
    return best

def windows(files, labels, step, n=60):
    out = []
    for f in files:
        t, a, lab = load(f); ks, G = grid(t, a)
        first = {}
        for ti, l in zip(t, lab): first.setdefault(int(math.floor(ti / 0.04)), l)
        for end in range(n, len(G) + 1, step):
            if not all(first.get(k, '') in labels for k in ks[end - n:end]): continue
            g = G[end - n:end] - G[end - n:end].mean(0)
            _, _, vt = np.linalg.svd(g, full_matrices=False)
            out.append((periodicity(g @ vt[0]), periodicity(g), math.sqrt((g * g).sum(1).mean())))
    return np.array(out)

def main():
    d = (sys.argv[1] if len(sys.argv) > 1 else '../shared/datasets') + '/activity'
    hapt = sorted(glob.glob(d + '/hapt/user*.csv'))
    sets = [
        ('spsw wrist walking', sorted(glob.glob(d + '/spsw/*_sw.csv')), {'walking'}, 10),
        ('spsw s19 wrist walking', sorted(glob.glob(d + '/spsw/s19*_sw.csv')), {'walking'}, 10),
        ('spsw pocket walking', sorted(glob.glob(d + '/spsw/*_sp.csv')), {'walking'}, 10),
        ('spsw wrist seated/rising', sorted(glob.glob(d + '/spsw/*_sw.csv')), {'transition', 'still'}, 5),
        ('HAPT walking', hapt, {'walking', 'walking_upstairs', 'walking_downstairs'}, 30),
        ('HAPT sit/stand/lie', hapt, {'sitting', 'standing', 'lying'}, 30),
        ('HAPT transitions', hapt, {'transition'}, 5),
    ]
    def q(x): return '%.2f/%.2f/%.2f (>=0.5: %4.1f %%)' % (np.percentile(x, 10), np.median(x), np.percentile(x, 90), 100 * (x >= 0.5).mean())
    print('set'.ljust(26) + 'windows  principal axis                    vector                            rms rad/s (median)')
    for name, files, labels, step in sets:
        w = windows(files, labels, step)
        if len(w) == 0: print(name.ljust(26) + '0'); continue
        print(name.ljust(26) + str(len(w)).ljust(9) + q(w[:, 0]).ljust(34) + q(w[:, 1]).ljust(34) + '%.2f' % np.median(w[:, 2]))

if __name__ == '__main__':
    main()
