"""Checks 58-iio-cpu-batch1: CPU ns per sample of `motionbatch capture --batch 1` vs
`iio_readdev -b 1` (per-sample delivery), same settings, same run, both device placements.
Target (issue 14): <= 1.0x, reported as target_met for release binaries (a benchmark figure, not
a pass/fail condition); the windows and exits are checked."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_cpu", os.path.join(os.path.dirname(__file__), "iio_cpu.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    return c.check_pair(r, 17, 1.0)
