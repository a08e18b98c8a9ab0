"""Checks 64-session-kill (issue 15, session test 2): killed with SIGKILL at a random moment, each
recording reads back (no malformed line; a torn final line is the only tolerated defect), holds
every batch the capture reported on stdout (a batch's NDJSON line is printed after its rows were
written and synced) and at most one batch more, and ends at most one batch latency plus the
burst in flight before the kill; `recover` (seeds 1, 2) or the next session into the directory
(seed 3) completes it: a summary with complete: false, end: interrupted, samples = rows, steps =
replay of the rows, and the checkpointed CPU time and wake-ups."""
BATCH = 100


def check(r, ctx):
    p, figs = [], {"missing_batches": [], "behind_kill_s": []}
    trials = r.get("trials") or []
    if len(trials) != 3: p.append(f"{len(trials)} trials, expected 3")
    for t in trials:
        k = f"seed {t.get('seed')}"
        if t.get("exit") != -9: p.append(f"{k}: the capture exited {t.get('exit')}, not killed by SIGKILL")
        if len(t.get("files") or []) != 1:
            p.append(f"{k}: {len(t.get('files') or [])} recordings, expected 1"); continue
        rows, reported = t.get("rows") or 0, t.get("reported_samples") or 0
        if t.get("replay_before_exit") != 0: p.append(f"{k}: the killed recording does not read back: {t.get('replay_before')}")
        if rows < reported: p.append(f"{k}: {rows} rows, but {reported} samples were reported delivered: a reported batch is missing")
        if rows > reported + BATCH: p.append(f"{k}: {rows} rows, more than one batch beyond the {reported} reported")
        figs["missing_batches"].append(0 if rows >= reported else (reported - rows + BATCH - 1) // BATCH)
        if t.get("last_row_s") is not None:
            behind = t["killed_mono_s"] - t["last_row_s"]
            figs["behind_kill_s"].append(round(behind, 3))
            # At most the batch being filled (1 s) plus the burst in flight and the kill's own latency.
            if behind > 2.5: p.append(f"{k}: the last row is {behind:.2f} s before the kill")
        s = t.get("summary")
        if not s: p.append(f"{k}: no summary after recovery ({t.get('recover_stderr') or t.get('restart_stderr')})"); continue
        if s.get("complete") is not False or s.get("end") != "interrupted": p.append(f"{k}: summary complete/end {s.get('complete')}/{s.get('end')}")
        if s.get("samples") != rows: p.append(f"{k}: summary samples {s.get('samples')} != rows {rows}")
        after = t.get("replay_after") if isinstance(t.get("replay_after"), dict) else {}
        if t.get("replay_after_exit") != 0: p.append(f"{k}: the recovered recording does not read back")
        if s.get("steps") != after.get("steps"): p.append(f"{k}: summary steps {s.get('steps')} != replay {after.get('steps')}")
        if t.get("checkpoint_before") and s.get("cpu_s") is None: p.append(f"{k}: a checkpoint was left but the summary has no CPU time")
        if s.get("figures_as_of_s") is None and t.get("checkpoint_before"): p.append(f"{k}: no figures_as_of_s from the checkpoint")
        if any(f.endswith(".checkpoint.json") for f in t.get("files_after") or []) and t.get("seed") != 3:
            p.append(f"{k}: the checkpoint was not removed")
        if t.get("seed") == 3:
            if t.get("restart_exit") != 0: p.append(f"{k}: the next session exited {t.get('restart_exit')}: {t.get('restart_stderr')}")
            if "recovered the interrupted recording" not in (t.get("restart_stderr") or ""): p.append(f"{k}: the next session did not log the recovery")
            if len([f for f in t.get("files_after") or [] if f.endswith(".summary.json")]) != 2: p.append(f"{k}: expected two summaries after the next session")
        elif t.get("recover_exit") != 0:
            p.append(f"{k}: recover exited {t.get('recover_exit')}: {t.get('recover_stderr')}")
    figs["samples"] = sum(t.get("rows") or 0 for t in trials)
    figs["torn_lines"] = sum(1 for t in trials if t.get("torn"))
    return p, figs
