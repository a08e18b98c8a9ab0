"""Checks 66-session-rotate (issue 15, session test 4): rotation every 10 s over 35 s gives 4
recordings, each a complete recording (header, summary), continuing each other (sequence,
continues); their rows, concatenated, are the emulator's source in order with no sample missing
or repeated (accel within half a raw step); every batch object of the NDJSON stream names one
recording and the recording's rows are exactly its batches (none split). A full disk without
--max-disk stops the session (exit 1, "disk is full") with every recording readable and every
reported batch saved; with --max-disk the oldest recordings are deleted and the session runs to
its end."""
import os

ACC_TOL = 0.00980665 / 2 + 1e-6


def rows(path):
    out = []
    for line in open(path):
        if line[:1].isdigit():
            f = line.split(",")
            out.append([int(f[0])] + [float(x) for x in f[1:4]])
    return out


def source(path):
    return [[float(x) for x in l.split(",")[:4]] for i, l in enumerate(open(path)) if i > 0]


def check(r, ctx):
    p, figs = [], {}
    rot = r.get("rotate") or {}
    recs = rot.get("recordings") or []
    if rot.get("exit") != 0: p.append(f"rotate: exit {rot.get('exit')}: {rot.get('stderr', '')[-300:]}")
    if len(recs) != 4: p.append(f"rotate: {len(recs)} recordings, expected 4: {[x['name'] for x in recs]}")
    recs.sort(key=lambda x: int(x["header"].get("sequence", "0")))
    for i, x in enumerate(recs):
        if x.get("replay_exit") != 0: p.append(f"rotate: {x['name']} does not read back: {x.get('replay_stderr')}")
        if not x.get("summary"): p.append(f"rotate: {x['name']} has no summary")
        if i > 0 and x["header"].get("continues") != recs[i - 1]["name"]: p.append(f"rotate: {x['name']} does not continue {recs[i - 1]['name']}")
    d = os.path.join(ctx["results"], "66-session-rotate.rot")
    per = [rows(os.path.join(d, x["name"])) for x in recs]
    allrows = [row for part in per for row in part]
    src = source(os.path.join(ctx["results"], "66-session-rotate.source.csv"))
    n = len(src)
    if allrows and src:
        starts = [k for k in range(n) if all(abs(allrows[0][1 + a] - src[k][1 + a]) <= ACC_TOL for a in range(3))]
        bad = min((sum(1 for i, row in enumerate(allrows) if any(abs(row[1 + a] - src[(k + i) % n][1 + a]) > ACC_TOL for a in range(3))) for k in starts), default=None)
        if bad is None: p.append("rotate: the first sample is not in the source")
        elif bad: p.append(f"rotate: {bad} of {len(allrows)} concatenated rows differ from the source in order")
        ts = [row[0] for row in allrows]
        steps = [b - a for a, b in zip(ts, ts[1:])]
        if any(s <= 0 for s in steps): p.append("rotate: timestamps do not increase across the recordings")
        if any(s > 15_000_000 for s in steps): p.append(f"rotate: a gap of {max(steps) / 1e6:.1f} ms in the concatenation")
        figs["mismatched_samples"] = bad
    batches = rot.get("batches") or []
    for x, part in zip(recs, per):
        mine = [b for b in batches if b.get("recording") == x["name"]]
        if not part or not mine: p.append(f"rotate: {x['name']}: no rows or no batches"); continue
        if sum(b["samples"] for b in mine) != len(part): p.append(f"rotate: {x['name']}: {len(part)} rows, its batches hold {sum(b['samples'] for b in mine)}")
        if abs(mine[0]["first_s"] - part[0][0] / 1e9) > 1e-6 or abs(mine[-1]["end_s"] - part[-1][0] / 1e9) > 1e-6:
            p.append(f"rotate: {x['name']} does not start and end with its first and last batch (split mid-batch)")
    spans = [round((part[-1][0] - part[0][0]) / 1e9, 2) for part in per if part]
    figs.update({"recordings": len(recs), "spans_s": spans, "samples": len(allrows)})
    full = r.get("full") or {}
    if full.get("exit") != 1: p.append(f"full disk: exit {full.get('exit')}, expected 1")
    if "disk is full" not in full.get("stderr", ""): p.append(f"full disk: no 'disk is full' message: {full.get('stderr', '')[-400:]}")
    if "disk-full" not in (full.get("events") or []): p.append("full disk: no disk-full event")
    frecs = full.get("recordings") or []
    if not frecs: p.append("full disk: no recording saved")
    for x in frecs:
        if x.get("replay_exit") != 0: p.append(f"full disk: {x['name']} does not read back: {x.get('replay_stderr')}")
    saved = sum(x["rows"] for x in frecs)
    if saved < (full.get("reported_samples") or 0): p.append(f"full disk: {saved} rows saved, {full.get('reported_samples')} samples reported")
    ring = r.get("ring") or {}
    if ring.get("exit") != 0: p.append(f"--max-disk: exit {ring.get('exit')}: {ring.get('stderr', '')[-400:]}")
    if not ring.get("deleted"): p.append("--max-disk: nothing was deleted on the full disk")
    if (ring.get("batches") or 0) < 35: p.append(f"--max-disk: only {ring.get('batches')} batches in 40 s")
    for x in ring.get("recordings") or []:
        if x.get("replay_exit") != 0: p.append(f"--max-disk: {x['name']} does not read back: {x.get('replay_stderr')}")
    figs.update({"full_disk_saved_samples": saved, "full_disk_reported_samples": full.get("reported_samples"),
                 "ring_deleted": len(ring.get("deleted") or []), "ring_disk_full_events": ring.get("disk_full"),
                 "ring_batches": ring.get("batches")})
    return p, figs
