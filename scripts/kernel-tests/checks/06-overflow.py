"""Checks 06-overflow: FIFO capacity 20 with 51 samples per 0.5 s burst drops by policy; the
losses appear as hub-timestamp gaps and the delivered values match their own instants."""
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
import capture

INTERVAL = 10_000_000
# policy -> (first recording row delivered, rows in the first burst)
EXPECT = {"oldest": (31, list(range(31, 51))), "newest": (0, list(range(0, 20)))}


def check(r, ctx):
    p = []
    res = ctx["results"]
    rows = capture.recording(os.path.join(res, r["recording"]))
    figs = {"samples": 0, "lost_samples": 0, "device_deliveries": 0, "process_wakeups": 0, "cpu_time_s": 0.0}
    for pol, (first_row, first_burst) in EXPECT.items():
        run = r.get(f"{pol}_run") or {}
        if run.get("timed_out") or run.get("exit") != 0:
            p.append(f"drop-{pol}: iio_readdev exit {run.get('exit')} timed_out {run.get('timed_out')}: {run.get('stderr', '').strip()[-300:]}")
        snap = r[pol]
        samples, _ = capture.decode(os.path.join(res, r[f"{pol}_capture"]), snap, "accel")
        if len(samples) != r["n"]:
            p.append(f"drop-{pol}: captured {len(samples)} samples, expected {r['n']}")
        idx, bad, problem = capture.rows_by_timestamp(samples, rows, (1, 2, 3), float(snap["in_accel_scale"]), INTERVAL)
        if idx is None or bad:
            p.append(f"drop-{pol}: {bad} samples differ from the recording at their timestamps: {problem}")
            continue
        if idx[:20] != first_burst:
            p.append(f"drop-{pol}: first burst holds rows {idx[0]}..{idx[min(19, len(idx) - 1)]}, expected {first_burst[0]}..{first_burst[-1]}")
        ts = [s[0] for s in samples]
        lost = capture.gaps(ts, INTERVAL)
        # Bursts: runs of consecutive rows; each must hold exactly the FIFO capacity.
        runs, start = [], 0
        for k in range(1, len(idx) + 1):
            if k == len(idx) or idx[k] != idx[k - 1] + 1:
                runs.append(k - start)
                start = k
        if any(n != 20 for n in runs):
            p.append(f"drop-{pol}: runs of consecutive samples {runs}, expected all 20 (the FIFO capacity)")
        if lost != (idx[-1] - idx[0] + 1) - len(idx) or lost == 0:
            p.append(f"drop-{pol}: {lost} samples lost by timestamp gaps, rows span {idx[0]}..{idx[-1]} for {len(idx)} samples")
        em = next((x for x in (r.get(f"{pol}_summary") or {}).get("sensors", []) if x["name"] == "accel_3d"), {})
        if em.get("samples_dropped", 0) < lost:
            p.append(f"drop-{pol}: emulator counted {em.get('samples_dropped')} dropped, fewer than the {lost} missing")
        figs["samples"] += len(samples)
        figs["lost_samples"] += lost
        figs["device_deliveries"] += em.get("bursts", 0)
        figs["process_wakeups"] += run.get("process_wakeups", 0)
        figs["cpu_time_s"] = round(figs["cpu_time_s"] + run.get("cpu_time_s", 0.0), 4)
        figs[f"emulator_dropped_{pol}"] = em.get("samples_dropped")
    return p, figs
