"""Checks 51-iio-capture: 100 Hz, latency 1 s, accel+gyro merged; values equal the source in
order (within the raw resolution), nothing lost, timestamps increasing and spaced by the period,
with hub timestamps and with bunched arrival timestamps (repaired)."""
import importlib.util, os
spec = importlib.util.spec_from_file_location("iio_common", os.path.join(os.path.dirname(__file__), "iio_common.py"))
c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)

ACC_TOL = 0.0098 / 2 + 1e-6      # 1 milli-g raw resolution
GYR_TOL = 0.000174533 / 2 + 1e-7  # 0.01 deg/s


def compare(mode, ctx, r, p, figs):
    res = r.get(mode) or {}
    st = res.get("stats") or {}
    if res.get("exit") != 0: p.append(f"{mode}: capture exited {res.get('exit')}")
    path = os.path.join(ctx["results"], f"51-iio-capture.{mode}.csv")
    if not os.path.exists(path):
        p.append(f"{mode}: no recording"); return
    cols, rows = c.read_recording(path)
    src = c.read_source(os.path.join(ctx["results"], "51-iio-capture.source.csv"))
    n = len(src)
    if len(rows) < 400: p.append(f"{mode}: only {len(rows)} samples in 6 s at 100 Hz")
    if not rows: return
    starts = [k for k in range(n) if all(abs(rows[0][1 + a] - src[k][1 + a]) <= ACC_TOL for a in range(3))]
    best = None
    for k in starts:
        bad = sum(1 for i, row in enumerate(rows) if any(abs(row[1 + a] - src[(k + i) % n][1 + a]) > ACC_TOL for a in range(3)))
        if best is None or bad < best[1]: best = (k, bad)
    if best is None:
        p.append(f"{mode}: first captured sample not found in the source"); return
    k, bad = best
    if bad: p.append(f"{mode}: {bad} of {len(rows)} accel samples differ from the source in order (missing or reordered)")
    # Gyro: each sensor of the hub replays the recording from its own start, so the gyro stream
    # has its own offset; merged gyro values are interpolated at accel times, so each must lie
    # between two consecutive source gyro samples j, j+1 with j advancing one per row.
    def within(row, j):
        a, b = src[j % n], src[(j + 1) % n]
        return all(min(a[4 + x], b[4 + x]) - GYR_TOL <= row[4 + x] <= max(a[4 + x], b[4 + x]) + GYR_TOL for x in range(3))
    mid = rows[150:-150]
    gbad = len(mid)
    if mid:
        scores = [(sum(1 for i, row in enumerate(mid[:60]) if within(row, j + i - 1) or within(row, j + i)), j) for j in range(n)]
        j0 = max(scores)[1]
        # Arrival stamps anchor each burst at its delivery, up to a period after its last
        # sample: accel and gyro may then be misaligned by up to one more sample.
        offsets = [-2, -1, 0, 1] if mode == "arrival" else [-1, 0]
        gbad = sum(1 for i, row in enumerate(mid) if not any(within(row, j0 + i + d) for d in offsets))
    if gbad: p.append(f"{mode}: {gbad} of {len(mid)} merged gyro samples are not between the source's consecutive gyro samples")
    emu = c.sensor(res.get("emulator"), "accel_3d")
    ts = [int(row[0]) for row in rows]
    dts = [b - a for a, b in zip(ts, ts[1:])]
    if any(d <= 0 for d in dts): p.append(f"{mode}: timestamps not strictly increasing")
    exact = sum(1 for d in dts if abs(d - 10_000_000) <= 500_000)
    if mode == "hub":
        # Hub timestamps come from the emulator's clock: exact to the µs in almost every run; one
        # interval off by 0.54 ms was seen once in six full runs (TCG timing), so allow one outlier
        # within 1 ms and report the count.
        loose = sum(1 for d in dts if abs(d - 10_000_000) <= 1_000_000)
        if loose != len(dts) or len(dts) - exact > 1:
            p.append(f"{mode}: {len(dts) - exact} intervals differ from 10 ms by > 0.5 ms ({len(dts) - loose} by > 1 ms)")
    if mode == "arrival":
        # Repair spreads each run of arrivals by the period, anchored at its last stamp, so inside
        # a run every interval is the period; only where two runs join does the interval carry the
        # difference of their anchors' delays (each anchor is a read that came some time after its
        # last sample): at most one off interval per join, i.e. per delivery but the first, and never
        # <= 0 (an overlap is compressed; checked above). Seen: three joins off by 8.9, 1.5 and
        # 0.7 ms in one run of 601 samples (the 2 ms lower bound this replaced was not a property of
        # the repair). An interval over 3 periods would be a gap the repair invented.
        if exact < 0.9 * len(dts): p.append(f"arrival: only {exact}/{len(dts)} intervals within 0.5 ms of 10 ms after repair")
        joins = max(0, (emu.get("bursts") or 0) - 1)
        if len(dts) - exact > joins:
            p.append(f"arrival: {len(dts) - exact} intervals differ from 10 ms by > 0.5 ms, more than the {joins} joins between deliveries")
        if any(d > 30_000_000 for d in dts): p.append(f"arrival: an interval over 30 ms: max {max(dts)} ns")
        rep = sum(d.get("repaired_samples", 0) for d in st.get("devices", []))
        if rep == 0: p.append("arrival: no timestamps were repaired (bursts not bunched?)")
    if st.get("lost_samples") != 0: p.append(f"{mode}: {st.get('lost_samples')} samples reported lost")
    figs[mode] = {"samples": len(rows), "lost_samples": st.get("lost_samples"), "device_deliveries": emu.get("bursts"),
                  "process_wakeups": st.get("userspace_returns"), "cpu_time_s": st.get("cpu_s"),
                  "repaired_samples": sum(d.get("repaired_samples", 0) for d in st.get("devices", [])),
                  "intervals_within_0_5ms": f"{exact}/{len(dts)}"}


def check(r, ctx):
    p, figs = [], {}
    for mode in ("hub", "arrival"):
        compare(mode, ctx, r, p, figs)
    flat = {"samples": sum(f.get("samples", 0) for f in figs.values()),
            "lost_samples": sum((f.get("lost_samples") or 0) for f in figs.values())}
    flat.update({f"{m}_{k}": v for m, f in figs.items() for k, v in f.items()})
    return p, flat
