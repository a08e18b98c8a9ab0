#!/usr/bin/env python3
"""Host-side checks of the kernel tests' results; writes .build/kernel-tests/summary.json.

For every guest test scripts/kernel-tests/guest/NN-name.sh there must be a checker
scripts/kernel-tests/checks/NN-name.py defining

    def check(result: dict, ctx: dict) -> tuple[list[str], dict]

which receives the JSON object the guest test wrote ($MB_RESULTS/NN-name.json) and returns
(problems, figures). The test passes when the guest script exited 0, wrote its JSON, and the
checker found no problems. `ctx` holds {"results": dir, "root": repo root}.

Summary: {"passed": bool, "wall_seconds": float, "harness_error": str|null,
          "tests": [{"name", "passed", "problems": [...], "figures": {...}, "seconds"}]}
Standard figure keys (when meaningful): samples, lost_samples, device_deliveries,
process_wakeups, cpu_time_s.
"""
import argparse, importlib.util, json, os, sys, traceback

ap = argparse.ArgumentParser()
ap.add_argument("--results", required=True)
ap.add_argument("--tests", required=True)
ap.add_argument("--summary", required=True)
ap.add_argument("--only", default="")
ap.add_argument("--wall", type=float, default=None)
ap.add_argument("--harness-error", default=None)
a = ap.parse_args()

checks_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks")
ctx = {"results": a.results, "root": os.path.abspath(os.path.join(checks_dir, "..", "..", ".."))}
tests = sorted(f[:-3] for f in os.listdir(a.tests) if f.endswith(".sh") and f[:2].isdigit())
if a.only:
    tests = [t for t in tests if a.only in t]
else:
    # 90-99 are profiling tools, run and checked only when --only names them (guest-runner.sh).
    tests = [t for t in tests if not t.startswith("9")]

entries = []
for name in tests:
    problems, figures, seconds = [], {}, None
    exit_path = os.path.join(a.results, name + ".exit.json")
    res_path = os.path.join(a.results, name + ".json")
    if not os.path.exists(exit_path):
        problems.append("the guest did not run or did not finish this test")
    else:
        ex = json.load(open(exit_path))
        seconds = ex.get("seconds")
        if ex["exit"] != 0:
            problems.append(f"guest script exited with status {ex['exit']}" + (" (timeout)" if ex["exit"] in (124, 137) else ""))
    result = None
    if os.path.exists(res_path):
        try:
            result = json.load(open(res_path))
        except ValueError as e:
            problems.append(f"{res_path}: invalid JSON: {e}")
    elif os.path.exists(exit_path):
        problems.append(f"no result file {name}.json")
    checker = os.path.join(checks_dir, name + ".py")
    if not os.path.exists(checker):
        problems.append(f"no host-side checker scripts/kernel-tests/checks/{name}.py")
    elif result is not None:
        try:
            spec = importlib.util.spec_from_file_location("check_" + name.replace("-", "_"), checker)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            p, figures = mod.check(result, ctx)
            problems += p
        except Exception:
            problems.append("checker crashed: " + traceback.format_exc(limit=3))
    entries.append({"name": name, "passed": not problems, "problems": problems,
                    "figures": figures, "seconds": seconds})

ok = bool(entries) and all(e["passed"] for e in entries) and not a.harness_error
summary = {"passed": ok, "wall_seconds": a.wall, "harness_error": a.harness_error, "tests": entries}
os.makedirs(os.path.dirname(a.summary), exist_ok=True)
with open(a.summary, "w") as f:
    json.dump(summary, f, indent=2)
    f.write("\n")

print("===== kernel tests =====", file=sys.stderr)
for e in entries:
    figs = " ".join(f"{k}={v}" for k, v in e["figures"].items())
    print(f"{'PASS' if e['passed'] else 'FAIL'}  {e['name']}  {figs}", file=sys.stderr)
    for p in e["problems"]:
        print(f"      - {p}", file=sys.stderr)
if not entries:
    print("no kernel tests selected", file=sys.stderr)
sys.exit(0 if ok else 1)
