#!/usr/bin/env python3
"""Prints a JSON snapshot of an IIO device's sysfs attributes (guest helper).

usage: iio-snapshot.py /sys/bus/iio/devices/iio:deviceN [--raw]
Reads every regular file in the device directory, buffer/ and scan_elements/ except `*_raw`
(reading those powers the sensor on; pass --raw to include them). Values are strings;
unreadable attributes map to {"error": "..."}.
"""
import json, os, sys

d = sys.argv[1]
raw = "--raw" in sys.argv
out = {"path": d}
for sub in ["", "buffer", "scan_elements"]:
    p = os.path.join(d, sub)
    if not os.path.isdir(p):
        continue
    for name in sorted(os.listdir(p)):
        f = os.path.join(p, name)
        if not os.path.isfile(f) or name in ("uevent", "dev"):
            continue
        if name.endswith("_raw") and not raw:
            continue
        key = f"{sub}/{name}" if sub else name
        try:
            with open(f) as fh:
                out[key] = fh.read().strip()
        except OSError as e:
            out[key] = {"error": e.strerror}
print(json.dumps(out, sort_keys=True))
