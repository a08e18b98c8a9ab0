"""Checks 05-removal: the reader reports an error and exits (no hang, no crash) after the emulator dies.

libiio-utils 0.24's iio_readdev prints "Unable to refill buffer: Connection timed out (110)" once its
context timeout (default 1000 ms) expires, then exits with status 0; the check therefore asserts on
the error message and the time to exit, and reports the exit status as a figure."""


def check(r, ctx):
    p = []
    run = r.get("run") or {}
    if not r.get("device_gone"):
        p.append("accel_3d still present 10 s after the emulator was killed")
    if r.get("bytes_before_kill", 0) <= 0:
        p.append("no samples were captured before the kill (the test did not exercise a live capture)")
    if run.get("timed_out"):
        p.append("iio_readdev hung: still running 20 s after start (killed by the harness)")
    elif run.get("signal"):
        p.append(f"iio_readdev died from signal {run['signal']}")
    exit_after = None
    if run.get("end_mono") is not None and r.get("kill_at") is not None:
        exit_after = round(run["end_mono"] - r["kill_at"], 3)
        if exit_after > 5:
            p.append(f"iio_readdev needed {exit_after} s after the kill to exit (> 5 s)")
    if "Unable to refill buffer" not in run.get("stderr", ""):
        p.append(f"iio_readdev did not report the failed refill: {run.get('stderr', '').strip()[-200:]!r}")
    if r.get("bytes_total", 0) % 24:
        p.append(f"capture ends with a partial scan ({r.get('bytes_total')} bytes)")
    # Informational (not asserted): with -T 0 (no timeout) does iio_readdev notice the removal?
    r2 = r.get("run_no_timeout") or {}
    no_timeout = None
    if r2 and r.get("kill2_at") is not None and not r2.get("timed_out"):
        no_timeout = round(r2["end_mono"] - r["kill2_at"], 3)
    return p, {"no_timeout_reader_hung": bool(r2.get("timed_out")) if r2 else None,
               "no_timeout_reader_exit_after_kill_s": no_timeout,
               "samples": r.get("bytes_total", 0) // 24, "reader_exit": run.get("exit"),
               "reader_exit_after_kill_s": exit_after, "reader_error": next((l for l in run.get("stderr", "").splitlines() if "refill" in l), None),
               "process_wakeups": run.get("process_wakeups"), "cpu_time_s": run.get("cpu_time_s")}
