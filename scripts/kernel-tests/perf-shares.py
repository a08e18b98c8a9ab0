#!/usr/bin/env python3
"""Shares of a `perf script` profile (the gzipped text `--only 92-` writes to
results/profile/cap-perf-script.txt.gz): for each named group, the percentage of samples whose
call chain holds one of its frames (a sample counts once per group). Groups are substrings of
symbol names. Usage: perf-shares.py [FILE] (default .build/kernel-tests/results/profile/cap-perf-script.txt.gz)."""
import gzip, re, sys

GROUPS = {
    "open system calls": ["do_sys_openat2"],
    "pread (ScaleWatch)": ["__x64_sys_pread64"],
    "getrusage": ["getrusage"],
    "live analysis (SessionMachine.analyse)": ["0B7MachineV7analyse"],
    "activity features": ["ActivityFeaturesV7compute"],
    "their periodicity": ["ActivityFeaturesV11periodicity"],
    "capture machine (handle)": ["CaptureMachineV6handle"],
    "poll": ["__x64_sys_poll"],
}

path = sys.argv[1] if len(sys.argv) > 1 else ".build/kernel-tests/results/profile/cap-perf-script.txt.gz"
text = gzip.open(path, "rt", errors="replace").read()
samples = [s for s in text.strip().split("\n\n") if s.strip()]
counts = dict.fromkeys(GROUPS, 0)
for s in samples:
    frames = [re.sub(r"\+0x[0-9a-f]+", "", l.strip().split(None, 1)[1]) for l in s.strip().split("\n")[1:] if len(l.strip().split(None, 1)) == 2]
    for g, keys in GROUPS.items():
        if any(k in f for f in frames for k in keys):
            counts[g] += 1
print(f"{len(samples)} samples in {path}")
for g, n in counts.items():
    print(f"  {100 * n / max(1, len(samples)):5.1f} %  ({n})  {g}")
