"""Checks 91-perf-ab (opt-in profiling tool): reports CPU per sample of the builds A and B in both
rounds (round 1: A on accel_3d, B on gyro_3d; round 2 swapped) and B's cost over A's per window;
nothing is judged."""


def check(r, ctx):
    f = {}
    for k in ("round1", "round2"):
        w = r[k]["windows"]
        # pair_windows names its two processes capture (A) and readdev (B).
        f[k + "_b_over_a"] = [round(x["readdev_cpu_ns"] / x["capture_cpu_ns"], 3) for x in w]
        a, b = r[k]["a"], r[k]["b"]
        f[k + "_a_us"] = round(a["cpu_ns"] / (100 * a["seconds"]) / 1000, 1)
        f[k + "_b_us"] = round(b["cpu_ns"] / (100 * b["seconds"]) / 1000, 1)
        f[k + "_a_user_sys_ticks"] = (a.get("user_ticks"), a.get("system_ticks"))
        f[k + "_b_user_sys_ticks"] = (b.get("user_ticks"), b.get("system_ticks"))
    return [], f
