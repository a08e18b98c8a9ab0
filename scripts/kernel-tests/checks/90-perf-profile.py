"""Checks 90-perf-profile (opt-in profiling tool): nothing to judge; the profile is in
results/profile/."""


def check(r, ctx):
    return [], {}
