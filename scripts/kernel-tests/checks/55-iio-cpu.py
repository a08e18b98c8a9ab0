"""Checks 55-iio-cpu: CPU per sample of `motionbatch capture` (converting to SI units, repairing
timestamps, detecting gaps, the live analysis) vs iio_readdev (raw bytes to /dev/null) at batch
100, same settings, one reader at a time, five rounds (cpu_ab). Target: <= 0.5x of iio_readdev,
the median of the rounds' ratios; a pass/fail check for release binaries (a debug build's
figures are reported with target_checked=false)."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_cpu", os.path.join(os.path.dirname(__file__), "iio_cpu.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)


def check(r, ctx):
    return c.check_ab(r, 14.5, 5, 0.5, enforce=True)
