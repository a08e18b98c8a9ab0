#!/usr/bin/env python3
"""Damages real recordings in many ways and checks that MotionBatch handles every result.

    scripts/malformed-inputs.py [--binary PATH] [--per-source N] [--seed S]

Sources: the bundled Recordings/*.csv and 10 recordings spread over ../shared/datasets (when
present), each cut to its first 3000 lines. Every source gets the 30 damages below (random ones with a seeded
generator, so runs are repeatable) written to a temporary folder outside the repository; then
`replay`, `steps` and `convert` run on each input. Checked for every run:
  - not killed by a signal, exit status 0, 1 or 64;
  - stderr without raw control characters (bytes from the input must be escaped);
  - stdout without nan or inf;
  - convert leaves either a file that replays with status 0, or no file; never a temporary file.
Prints a summary line per damage and exits 1 if any check failed.
"""
import argparse, glob, os, random, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")
NONFINITE = re.compile(rb"\b(nan|inf|infinity)\b", re.I)
NUMBER = re.compile(rb"-?\d+(\.\d+)?(e[+-]?\d+)?")


def sources():
    files = sorted(glob.glob(os.path.join(ROOT, "Recordings", "*.csv")))
    ds = os.path.join(os.path.dirname(ROOT), "shared", "datasets")
    if os.path.isdir(ds):
        found = sorted(glob.glob(os.path.join(ds, "**", "*.csv"), recursive=True))
        # Recordings only (not the manifest or the step-time truth files).
        def is_recording(f):
            with open(f, "rb") as h:
                first = h.readline()
            return first.startswith(b"#") or first.startswith(b"time_s,accel")
        found = [f for f in found if is_recording(f)]
        step = max(1, len(found) // 10)
        files += found[::step][:10]
    out = []
    for f in files:
        with open(f, "rb") as h:
            lines = h.read().split(b"\n")[:3000]
        out.append((os.path.relpath(f, os.path.dirname(ROOT)), b"\n".join(lines) + b"\n"))
    return out


def replace_number(data, rng, value):
    matches = list(NUMBER.finditer(data, len(data) // 3))
    if not matches:
        return data
    m = rng.choice(matches)
    return data[:m.start()] + value + data[m.end():]


def damages(data, rng):
    lines = data.split(b"\n")
    body = lines[:-1]
    def line_op(f):
        b = list(body)
        if len(b) > 3:
            f(b)
        return b"\n".join(b) + b"\n"
    at = lambda: rng.randrange(len(data)) if data else 0
    def flip(d):
        d = bytearray(d)
        for _ in range(5):
            if d:
                i = rng.randrange(len(d)); d[i] ^= 1 << rng.randrange(8)
        return bytes(d)
    k = lambda: rng.randrange(2, max(3, len(body)))
    return {
        "truncated at a random byte": data[:at()],
        "five bit flips": flip(data),
        "NUL inserted": (lambda i: data[:i] + b"\x00" + data[i:])(at()),
        "escape sequence inserted": (lambda i: data[:i] + b"\x1b[31m" + data[i:])(at()),
        "line duplicated": line_op(lambda b: b.insert(k(), b[k()])),
        "two lines swapped": line_op(lambda b: (lambda i, j: b.__setitem__(slice(None), b[:i] + [b[j]] + b[i+1:j] + [b[i]] + b[j+1:]) if i < j else None)(*sorted((k(), k())))),
        "line deleted": line_op(lambda b: b.pop(k())),
        "number -> 1e308": replace_number(data, rng, b"1e308"),
        "number -> Int64.min": replace_number(data, rng, b"-9223372036854775808"),
        "number -> Int64.max": replace_number(data, rng, b"9223372036854775807"),
        "number -> nan": replace_number(data, rng, b"nan"),
        "number -> 0x10": replace_number(data, rng, b"0x10"),
        "number -> 400 digits": replace_number(data, rng, b"9" * 400),
        "number -> 1e-400": replace_number(data, rng, b"1e-400"),
        "CRLF line ends": data.replace(b"\n", b"\r\n"),
        "UTF-16": data.decode("utf-8", "replace").encode("utf-16"),
        "random binary": bytes(rng.randrange(256) for _ in range(4096)),
        "empty": b"",
        "header only": b"\n".join(l for l in lines if l.startswith(b"#") or l.startswith(b"time") or l.startswith(b"timestamp")) + b"\n",
        "byte-order mark": b"\xef\xbb\xbf" + data,
        "no newlines": data.replace(b"\n", b""),
        "extra column": line_op(lambda b: b.__setitem__(k(), b[k()] + b",1")),
        "missing column": line_op(lambda b: b.__setitem__(k(), b[k()].rsplit(b",", 1)[0])),
        "a 2 MB line": line_op(lambda b: b.insert(k(), b"1" * 2_000_000)),
        "declared rate 1e-320": (b"# actual_hz: 1e-320\n".join(data.split(b"\n", 1)) if data.startswith(b"#") else data.replace(b"\n", b"\n# actual_hz: 1e-320\n", 1)),
        "decimal commas": data.replace(b".", b","),
        "tabs for commas": data.replace(b",", b"\t"),
        "spaces after commas": data.replace(b",", b", "),
        "timestamps reversed": line_op(lambda b: b.__setitem__(slice(None), [l for l in b if l.startswith(b"#") or l[:1].isalpha()] + list(reversed([l for l in b if not (l.startswith(b"#") or l[:1].isalpha())])))),
        "random line cut": line_op(lambda b: b.__setitem__(k(), b[k()][: rng.randrange(1, max(2, len(b[k()])))])),
    }


def run(binary, args, cwd):
    p = subprocess.run([binary] + args, cwd=cwd, capture_output=True, env=dict(os.environ, SWIFT_BACKTRACE="enable=no"), timeout=120)
    problems = []
    if p.returncode < 0:
        problems.append(f"killed by signal {-p.returncode}")
    elif p.returncode not in (0, 1, 64):
        problems.append(f"exit status {p.returncode}")
    if CONTROL.search(p.stderr):
        problems.append("raw control character on stderr: " + repr(p.stderr[:200]))
    if NONFINITE.search(p.stdout):
        problems.append("nan/inf on stdout")
    return p, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "motionbatch"))
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    totals, failures = {}, []
    with tempfile.TemporaryDirectory(prefix="motionbatch-malformed-") as tmp:
        for n, (name, data) in enumerate(sources()):
            for kind, bad in damages(data, rng).items():
                path = os.path.join(tmp, f"in-{n}.csv")
                with open(path, "wb") as f:
                    f.write(bad)
                outdir = os.path.join(tmp, f"out-{n}")
                os.makedirs(outdir, exist_ok=True)
                out = os.path.join(outdir, "out.csv")
                results = []
                for cmd in (["replay", path, "--json"], ["steps", path], ["convert", path, out]):
                    p, problems = run(args.binary, cmd, tmp)
                    results.append(p.returncode)
                    failures += [f"{name} / {kind} / {cmd[0]}: {x}" for x in problems]
                leftovers = [f for f in os.listdir(outdir) if f != "out.csv"]
                if leftovers:
                    failures.append(f"{name} / {kind} / convert: left {leftovers}")
                if os.path.exists(out):
                    if results[2] != 0:
                        failures.append(f"{name} / {kind} / convert: failed but left out.csv")
                    p, problems = run(args.binary, ["replay", out], tmp)
                    if p.returncode != 0:
                        failures.append(f"{name} / {kind}: convert's output does not replay: {p.stderr[:200]!r}")
                    os.remove(out)
                elif results[2] == 0:
                    failures.append(f"{name} / {kind} / convert: status 0 but no output")
                t = totals.setdefault(kind, [0, 0, 0])
                t[0] += 1
                t[1] += sum(1 for r in results if r == 0)
                t[2] += sum(1 for r in results if r in (1, 64))
    runs = sum(t[0] for t in totals.values()) * 3
    print(f"{sum(t[0] for t in totals.values())} damaged inputs from {len(sources())} sources, {runs} runs (+ re-reads of convert's outputs)")
    for kind, (n, ok, refused) in totals.items():
        print(f"  {kind:28s} {n:3d} inputs: {ok:3d} runs succeeded, {refused:3d} refused with status 1/64")
    if failures:
        print(f"{len(failures)} problems:")
        for f in failures[:50]:
            print("  " + f)
        sys.exit(1)
    print("no crash, no raw control character, no nan/inf, no partial or unreadable output")


if __name__ == "__main__":
    main()
