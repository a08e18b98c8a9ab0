#!/usr/bin/env python3
"""Host-side checks of the kernel tests' results; writes .build/kernel-tests/summary.json.

For every guest test scripts/kernel-tests/guest/NN-name.sh there must be a checker
scripts/kernel-tests/checks/NN-name.py defining

    def check(result: dict, ctx: dict) -> tuple[list[str], dict]

which receives the JSON object the guest test wrote ($MB_RESULTS/NN-name.json) and returns
(problems, figures). The test passes when the guest script exited 0, wrote its JSON, and the
checker found no problems. `ctx` holds {"results": dir, "root": repo root}.

Summary: {"passed": bool, "wall_seconds": float, "harness_error": str|null, "repeat": N,
          "tests": [{"name", "passed", "problems": [...], "figures": {...}, "seconds"}]}
With --repeat N > 1 the results of round r are in RESULTS/round-r; each test's entry then also
has "rounds": [{"passed", "problems", "figures", "seconds"} per round], "figures" holds the
numeric figures' {"min", "median", "max", "values"}, and it passed when every round did.
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
ap.add_argument("--repeat", type=int, default=1)
a = ap.parse_args()

checks_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checks")
ctx = {"results": a.results, "root": os.path.abspath(os.path.join(checks_dir, "..", "..", ".."))}
tests = sorted(f[:-3] for f in os.listdir(a.tests) if f.endswith(".sh") and f[:2].isdigit())
if a.only:
    # --only A,B,...: a test is selected when its name contains any of the patterns.
    tests = [t for t in tests if any(p in t for p in a.only.split(",") if p)]
else:
    # 90-99 are profiling tools, run and checked only when --only names them (guest-runner.sh).
    tests = [t for t in tests if not t.startswith("9")]

def check_one(name, results):
    """(problems, figures, seconds) of test `name` in the results folder `results`."""
    problems, figures, seconds = [], {}, None
    exit_path = os.path.join(results, name + ".exit.json")
    res_path = os.path.join(results, name + ".json")
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
            p, figures = mod.check(result, dict(ctx, results=results))
            problems += p
        except Exception:
            problems.append("checker crashed: " + traceback.format_exc(limit=3))
    return problems, figures, seconds


def spread(rounds):
    """Per figure over the rounds: {min, median, max, values} for numbers, the values otherwise."""
    out = {}
    for key in dict.fromkeys(k for r in rounds for k in r["figures"]):
        values = [r["figures"].get(key) for r in rounds]
        nums = sorted(v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool))
        if nums and len(nums) == len(values):
            mid = len(nums) // 2
            median = nums[mid] if len(nums) % 2 else (nums[mid - 1] + nums[mid]) / 2
            median = int(median) if all(isinstance(v, int) for v in nums) and float(median).is_integer() else round(median, 6)
            out[key] = {"min": nums[0], "median": median, "max": nums[-1], "values": values}
        else:
            out[key] = {"values": values}
    return out


entries = []
for name in tests:
    if a.repeat <= 1:
        problems, figures, seconds = check_one(name, a.results)
        entries.append({"name": name, "passed": not problems, "problems": problems,
                        "figures": figures, "seconds": seconds})
        continue
    rounds = []
    for r in range(1, a.repeat + 1):
        problems, figures, seconds = check_one(name, os.path.join(a.results, f"round-{r}"))
        rounds.append({"passed": not problems, "problems": problems, "figures": figures, "seconds": seconds})
    problems = [f"round {i}: {p}" for i, r in enumerate(rounds, 1) for p in r["problems"]]
    entries.append({"name": name, "passed": all(r["passed"] for r in rounds), "problems": problems,
                    "figures": spread(rounds), "seconds": sum(r["seconds"] or 0 for r in rounds), "rounds": rounds})

ok = bool(entries) and all(e["passed"] for e in entries) and not a.harness_error
summary = {"passed": ok, "wall_seconds": a.wall, "harness_error": a.harness_error, "repeat": a.repeat, "tests": entries}
os.makedirs(os.path.dirname(a.summary), exist_ok=True)
with open(a.summary, "w") as f:
    json.dump(summary, f, indent=2)
    f.write("\n")

print("===== kernel tests =====", file=sys.stderr)
def shown(v):
    """A figure as printed: min/median/max over --repeat's rounds, else the value."""
    if isinstance(v, dict) and "median" in v and "values" in v:
        return f"{v['min']}/{v['median']}/{v['max']}"
    if isinstance(v, dict) and list(v) == ["values"]:
        return json.dumps(v["values"])
    return v


if a.repeat > 1:
    print(f"(--repeat {a.repeat}: figures are min/median/max over the rounds)", file=sys.stderr)
for e in entries:
    figs = " ".join(f"{k}={shown(v)}" for k, v in e["figures"].items())
    rounds = f" ({sum(r['passed'] for r in e['rounds'])}/{len(e['rounds'])} rounds)" if "rounds" in e else ""
    print(f"{'PASS' if e['passed'] else 'FAIL'}  {e['name']}{rounds}  {figs}", file=sys.stderr)
    for p in e["problems"]:
        print(f"      - {p}", file=sys.stderr)
if not entries:
    print("no kernel tests selected", file=sys.stderr)
sys.exit(0 if ok else 1)
