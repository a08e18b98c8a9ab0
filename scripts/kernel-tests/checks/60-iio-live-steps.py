"""Checks 60-iio-live-steps: the capture's live step count equals `motionbatch steps` on the
recording it wrote (batch-size invariance through a real kernel), over a plausible number of
samples and steps for 25 s of a real walk (UCI HAPT user 1: about 1.8 steps/s while walking,
with a pause of about 5 s)."""


def check(r, ctx):
    p = []
    st, rep = r.get("stats") or {}, r.get("replay") or {}
    if r.get("exit") != 0: p.append(f"capture exited {r.get('exit')}")
    if r.get("steps_exit") != 0: p.append(f"steps exited {r.get('steps_exit')}")
    live, replay, n = st.get("steps"), rep.get("steps"), st.get("samples") or 0
    if n < 1000: p.append(f"only {n} samples in 25 s at 50 Hz")
    if st.get("lost_samples"): p.append(f"{st.get('lost_samples')} samples lost")
    if live is None: p.append("the capture counted no steps (steps: null)")
    elif live != replay: p.append(f"live count {live} != replay of the captured recording {replay}")
    if isinstance(live, int) and not 10 <= live <= 80: p.append(f"{live} steps in 25 s of walking is implausible")
    return p, {"samples": n, "live_steps": live, "replay_steps": replay, "batches": st.get("batches"),
               "userspace_returns": st.get("userspace_returns")}
