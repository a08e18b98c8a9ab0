"""Checks 67-session-reconnect (issue 15, session test 5). With --reconnect: exit 0 at SIGTERM,
two recordings (r.csv ending with a `lost` event, r-2.csv continuing it with a `reconnected`
event carrying the gap), both with summaries (lost, signal), the session summary counting one
loss of about the time the device was away, the device found again although its iio:deviceN
and HID instance changed (the identity in both headers). Without --reconnect: a non-zero exit
within EXIT_S of the removal (the issue's 1 s), the partial recording saved and readable with
its `lost` event, stop reason lost."""
EXIT_S = 1.0


def check(r, ctx):
    p, figs = [], {}
    w = r.get("with") or {}
    if w.get("exit") != 0: p.append(f"reconnect: exit {w.get('exit')}: {w.get('stderr', '')[-400:]}")
    recs = w.get("recordings") or {}
    if sorted(recs) != ["r-2.csv", "r.csv"]: p.append(f"reconnect: recordings {sorted(recs)}, expected r.csv and r-2.csv")
    first, second = recs.get("r.csv") or {}, recs.get("r-2.csv") or {}
    if [e.split()[2] for e in first.get("events", [])] != ["lost"]: p.append(f"reconnect: r.csv events {first.get('events')}")
    ev2 = second.get("events", [])
    if [e.split()[2] for e in ev2] != ["reconnected"]: p.append(f"reconnect: r-2.csv events {ev2}")
    gap = None
    if ev2:
        detail = dict(kv.split("=", 1) for kv in ev2[0].split()[4:])
        gap = int(detail.get("gap_ns", "0")) / 1e9
        away = (w.get("back") or 0) - (w.get("removed") or 0)
        if not 0.5 * away <= gap <= away + 3: p.append(f"reconnect: recorded gap {gap:.2f} s for a device away {away:.2f} s")
    if "# continues: r.csv" not in second.get("header", []): p.append("reconnect: r-2.csv does not name r.csv as the one it continues")
    ident = [h for h in second.get("header", []) if h.startswith("# device.1:")]
    if not ident or "name=accel_3d" not in ident[0] or "parent=/devices/" not in ident[0]: p.append(f"reconnect: no identity in the header: {ident}")
    devs, parents = w.get("devices") or [], w.get("parents") or []
    if first.get("rows", 0) < 300 or second.get("rows", 0) < 300: p.append(f"reconnect: rows {first.get('rows')} + {second.get('rows')}")
    sums = w.get("summaries") or {}
    if (sums.get("r.summary.json") or {}).get("end") != "lost": p.append("reconnect: r.csv's summary does not end with lost")
    if (sums.get("r-2.summary.json") or {}).get("end") != "signal": p.append("reconnect: r-2.csv's summary does not end with signal")
    s = w.get("session") or {}
    if (s.get("device_losses") or {}).get("count") != 1: p.append(f"reconnect: session device_losses {s.get('device_losses')}")
    for e in ("device-lost", "reconnected"):
        if e not in (w.get("events") or []): p.append(f"reconnect: no {e} event")
    wo = r.get("without") or {}
    if wo.get("exit") in (0, None): p.append(f"without --reconnect: exit {wo.get('exit')}")
    t = wo.get("exit_after_removal_s")
    if t is None or t > EXIT_S: p.append(f"without --reconnect: exit {t} s after the removal (limit {EXIT_S} s)")
    if (wo.get("stats") or {}).get("stop_reason") != "lost": p.append(f"without --reconnect: stop reason {(wo.get('stats') or {}).get('stop_reason')}")
    if wo.get("rows", 0) < 200: p.append(f"without --reconnect: only {wo.get('rows')} rows saved")
    if wo.get("replay_exit") != 0: p.append("without --reconnect: the partial recording does not read back")
    if not any("event: lost" in e for e in wo.get("events") or []): p.append("without --reconnect: no lost event in the recording")
    if (wo.get("summary") or {}).get("end") != "lost": p.append("without --reconnect: no summary ending with lost")
    figs.update({"gap_s": gap, "devices": devs, "parents": parents, "rows": [first.get("rows"), second.get("rows")],
                 "exit_after_removal_s": round(t, 3) if t is not None else None, "exit_limit_s": EXIT_S,
                 "samples": (first.get("rows") or 0) + (second.get("rows") or 0)})
    return p, figs
