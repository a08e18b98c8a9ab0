"""Checks 70-fleet-publish (issue 19): the guest's capture published through guestfwd to the host's
broker; the host's collector (started by kernel-tests.sh into results/fleet-collected) holds every
message of the capture's --ndjson stream exactly once, in order; the board's figures in the
collected summary equal the capture's; the reader's scheduler wake-ups (voluntary context
switches over the streaming phase, 60 s at latency 1 s) with --publish stay within those without
plus 10 % + 5 (publishing is done in the batch wake-ups: it must add none of its own)."""
import json, os


def check(r, ctx):
    p = []
    plain, pub = r.get("plain") or {}, r.get("publish") or {}
    if r.get("plain_exit") != 0: p.append(f"the capture without --publish exited {r.get('plain_exit')}")
    if r.get("publish_exit") != 0: p.append(f"the capture with --publish exited {r.get('publish_exit')}: {r.get('log', '')[-300:]}")
    own = []
    path = os.path.join(ctx["results"], "70-fleet-publish.ndjson")
    if os.path.exists(path):
        own = [json.loads(l) for l in open(path) if l.strip()]
    session = own[0].get("session") if own else None
    coll = os.path.join(ctx["results"], "fleet-collected", "kernel1", f"{session}.ndjson")
    got = [json.loads(l) for l in open(coll) if l.strip()] if session and os.path.exists(coll) else []
    if not got: p.append(f"nothing collected at {coll}")
    own_seq, got_seq = [m.get("seq") for m in own], [m.get("seq") for m in got]
    if own_seq != got_seq: p.append(f"collected {len(got_seq)} messages, the capture printed {len(own_seq)} (or in another order)")
    strip = lambda m: {k: v for k, v in m.items() if k not in ("schema", "board")}
    ob = [strip(m) for m in own if m.get("type") == "batch"]
    gb = [strip(m) for m in got if m.get("type") == "batch"]
    if ob != gb: p.append("collected batch messages differ from the capture's --ndjson objects")
    if "not acknowledged" in (r.get("log") or ""): p.append("messages were left unacknowledged in the outbox")
    a, b = plain.get("voluntary_context_switches"), pub.get("voluntary_context_switches")
    if not isinstance(a, int) or not isinstance(b, int): p.append("wake-ups not measured")
    elif b > a * 1.1 + 5: p.append(f"{b} scheduler wake-ups with --publish, {a} without: publishing added wake-ups")
    figures = {"samples": pub.get("samples"), "process_wakeups": b, "process_wakeups_without_publish": a,
               "cpu_time_s": pub.get("cpu_s"), "cpu_time_s_without_publish": plain.get("cpu_s"),
               "messages_published": len(own), "messages_collected": len(got)}
    return p, figures
