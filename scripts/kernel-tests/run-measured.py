#!/usr/bin/env python3
"""Runs a command and records what it cost (guest helper).

usage: run-measured.py RESULT.json [--stdout FILE] [--timeout S] -- CMD ARGS...
Writes {"argv", "exit", "signal", "timed_out", "wall_s", "cpu_time_s", "user_s", "sys_s",
"voluntary_switches", "involuntary_switches", "process_wakeups", "stderr", "start_mono", "end_mono"}.
process_wakeups = voluntary context switches (each is one block/wake-up of the process).
Times from CLOCK_MONOTONIC. A command still running at --timeout is killed (timed_out: true).
"""
import json, os, resource, signal, subprocess, sys, time

argv = sys.argv[1:]
out = argv.pop(0)
stdout_path, timeout = None, 60.0
while argv and argv[0] != "--":
    opt = argv.pop(0)
    if opt == "--stdout":
        stdout_path = argv.pop(0)
    elif opt == "--timeout":
        timeout = float(argv.pop(0))
    else:
        sys.exit(f"run-measured.py: unknown option {opt}")
cmd = argv[1:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.monotonic()
so = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
p = subprocess.Popen(cmd, stdout=so, stderr=subprocess.PIPE)
timed_out = False
try:
    _, err = p.communicate(timeout=timeout)
except subprocess.TimeoutExpired:
    timed_out = True
    p.kill()
    _, err = p.communicate()
end = time.monotonic()
after = resource.getrusage(resource.RUSAGE_CHILDREN)
user = after.ru_utime - before.ru_utime
sys_ = after.ru_stime - before.ru_stime
vol = after.ru_nvcsw - before.ru_nvcsw
res = {
    "argv": cmd, "exit": p.returncode if p.returncode >= 0 else None,
    "signal": -p.returncode if p.returncode < 0 else None, "timed_out": timed_out,
    "wall_s": round(end - start, 4), "cpu_time_s": round(user + sys_, 4), "user_s": round(user, 4),
    "sys_s": round(sys_, 4), "voluntary_switches": vol,
    "involuntary_switches": after.ru_nivcsw - before.ru_nivcsw, "process_wakeups": vol,
    "stderr": err.decode(errors="replace")[-4000:], "start_mono": start, "end_mono": end,
}
with open(out, "w") as f:
    json.dump(res, f)
sys.exit(0)
