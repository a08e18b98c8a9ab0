"""Checks 58-iio-cpu-batch1: CPU per sample of `motionbatch capture --batch 1` vs `iio_readdev
-b 1` (per-sample delivery), one reader at a time, five rounds, with the same capture with
`--no-analysis` (alt: the reader alone) and the minimal Swift loop `floor-reader` measured in
each round (floor_ratio: what a Swift binary pays per wake-up in the emulated guest before doing
anything). Enforced (medians of the rounds): the reader alone, like for like with `iio_readdev`
(which only reads), at most 1.0x `iio_readdev` (0.73-0.87 in every fresh-clone suite and
repeat since 00a7707), and at most 2x the floor reader (a guard against a per-wake-up path
that doubles, as it once was at 3x: docs/iio-reader.md, "Batch 1, seventh round"). Reported,
not enforced: the capture with its live analysis against 1.0x (target_met), and what the
analysis adds per sample (capture_minus_alt_us_per_sample). The analysis is floating-point
code, which the guest's TCG emulates at about 30x its native cost against about 10x for the
reader's integer code (docs/iio-reader.md, "What the emulator charges for floating point").
The capture with --no-analysis must report no live steps or activity, the default one a step
count."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_cpu", os.path.join(os.path.dirname(__file__), "iio_cpu.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    p, figs = c.check_ab(r, 14.5, 5, 1.0, enforce=False, alt_floor_bound=2.0, alt_target=1.0)
    # --no-analysis must switch the live analysis off (steps null), and only it.
    for k, rd in enumerate(r.get("rounds") or [], 1):
        if (rd.get("stats") or {}).get("steps") is None: p.append(f"round {k}: the capture reported no live step count")
        alt = rd.get("alt_stats")
        if alt is None: p.append(f"round {k}: no statistics of the capture with --no-analysis")
        elif alt.get("steps") is not None or alt.get("activity") is not None:
            p.append(f"round {k}: the capture with --no-analysis reported steps {alt.get('steps')} / activity: the analysis ran")
    return p, figs
