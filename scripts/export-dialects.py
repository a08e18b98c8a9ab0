#!/usr/bin/env python3
"""Writes a recording in the formats of the apps and tools MotionBatch reads (docs/dialects.md),
as those apps write them, so that the same walk can be replayed through every dialect.

usage: scripts/export-dialects.py IN OUTDIR [--seconds S] [--defects] [--only NAME,...]

IN is a MotionBatch recording or a plain CSV (time_s,...). In OUTDIR it writes:

  phyphox-comma.csv           "CSV (Comma, decimal point)" of "Acceleration with g" (+ absolute column)
  phyphox-tab-comma.csv       "CSV (Tabulator, decimal comma)"
  phyphox-semicolon-comma.csv "CSV (Semicolon, decimal comma)"
  phyphox-gyro.csv            one set with accelerometer and gyroscope columns (IN with gyro only)
  phyphox.zip                 the zip export: Accelerometer.csv [+ Gyroscope.csv], meta/device.csv, meta/time.csv
  sensor-logger-android.zip   TotalAcceleration.csv, Accelerometer.csv, Gravity.csv [, Gyroscope.csv], Metadata.csv
  sensor-logger-ios/          a folder: Accelerometer.csv + Gravity.csv in iOS's frame (all axes negated),
                              [Gyroscope.csv,] Metadata.csv (platform ios), no TotalAcceleration.csv
  bangle-accellog.csv         Time (ms),X,Y,Z with 8192 = 1 g (integers, as the app rounds them)
  iio-accel.bin               a raw iio_readdev buffer: accel_x/y/z le:s16/16>>0, timestamp le:s64/64>>0
  iio-accel.layout            its --layout text;  iio-devices.json: a 'motionbatch devices --json' snapshot
  columns.csv                 t (ms), ax/ay/az (g) [, gx/gy/gz (deg/s)]: read with
                              --columns time=t,x=ax,y=ay,z=az[,gx=gx,gy=gy,gz=gz] --time-unit ms --accel-unit g
                              [--gyro-unit deg/s] (the exact command is in columns.args)
  *.gz                        phyphox-comma.csv.gz, bangle-accellog.csv.gz, iio-accel.bin.gz

Conventions reproduced: phyphox times are seconds from the first sample and values are printed
as Java's DecimalFormat "0.000000000E0" does (10 significant digits); Sensor Logger's `time` is epoch
ns and its columns are time,seconds_elapsed,z,y,x; its Gravity is a low-pass of the acceleration
(the app's is the OS's fusion, same idea); Gyroscope rows are stamped 3 ms after the accelerometer's
(each sensor keeps its own times in the app). With --defects, Sensor Logger's TotalAcceleration.csv
and the Bangle log get the defects of real phone logs: 1 % of rows duplicated exactly, some pairs
stamped equal, some steps back of a few ms (seeded: the same files every run).

Standard library only (offline tooling).
"""
import argparse, gzip, io, json, math, os, random, struct, zipfile

G = 9.80665


def read_recording(path):
    """(times_ns, accel [(x,y,z)], gyro [(x,y,z)] or None) from a MotionBatch or plain CSV."""
    times, acc, gyr = [], [], []
    cols = None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            if cols is None:
                cols = line.split(",")
                continue
            v = line.split(",")
            if cols[0] == "timestamp_ns":
                times.append(int(v[0]))
            else:
                times.append(int(round(float(v[0]) * 1e9)))
            acc.append(tuple(float(x) for x in v[1:4]))
            if "gyro_x" in cols:
                gyr.append(tuple(float(x) for x in v[4:7]))
    return times, acc, (gyr if gyr else None)


def java_e(v, decimal="."):
    """Java DecimalFormat("0.000000000E0"): one integer digit, nine decimals, exponent without '+'."""
    if v == 0:
        s = "0.000000000E0"
    else:
        m, e = ("%.9e" % v).split("e")
        s = "%sE%d" % (m, int(e))
    return s.replace(".", decimal)


def write(path, text, binary=False):
    with open(path, "wb" if binary else "w", newline="" if not binary else None) as f:
        f.write(text)


def gz(path):
    with open(path, "rb") as f, open(path + ".gz", "wb") as raw:
        # mtime 0 and no name: the same bytes every run
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as g:
            g.write(f.read())


def zip_write(path, members):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2024, 5, 1, 12, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def phyphox_rows(times, acc, gyr, sep, dec, absolute=True):
    t0 = times[0]
    out = []
    for i, t in enumerate(times):
        x, y, z = acc[i]
        vals = [(t - t0) / 1e9, x, y, z]
        if absolute:
            vals.append(math.sqrt(x * x + y * y + z * z))
        if gyr is not None:
            vals += list(gyr[i])
        out.append(sep.join(java_e(v, dec) for v in vals))
    return out


def phyphox(outdir, times, acc, gyr):
    head = ['"Time (s)"', '"Acceleration x (m/s^2)"', '"Acceleration y (m/s^2)"', '"Acceleration z (m/s^2)"', '"Absolute acceleration (m/s^2)"']
    for name, sep, dec in [("phyphox-comma.csv", ",", "."), ("phyphox-tab-comma.csv", "\t", ","), ("phyphox-semicolon-comma.csv", ";", ",")]:
        write(os.path.join(outdir, name), sep.join(head) + "\n" + "\n".join(phyphox_rows(times, acc, None, sep, dec)) + "\n")
    if gyr is not None:
        h = head[:4] + ['"Gyroscope x (rad/s)"', '"Gyroscope y (rad/s)"', '"Gyroscope z (rad/s)"']
        write(os.path.join(outdir, "phyphox-gyro.csv"), ",".join(h) + "\n" + "\n".join(phyphox_rows(times, acc, gyr, ",", ".", absolute=False)) + "\n")
    members = [("Accelerometer.csv", ",".join(head[:4]) + "\n" + "\n".join(phyphox_rows(times, acc, None, ",", ".", absolute=False)) + "\n")]
    if gyr is not None:
        gh = ['"Time (s)"', '"Gyroscope x (rad/s)"', '"Gyroscope y (rad/s)"', '"Gyroscope z (rad/s)"']
        # The gyroscope keeps its own clock: its rows are stamped 3 ms after the accelerometer's.
        t0 = times[0]
        rows = [",".join(java_e(v) for v in [(t - t0 + 3_000_000) / 1e9] + list(gyr[i])) for i, t in enumerate(times)]
        members.append(("Gyroscope.csv", ",".join(gh) + "\n" + "\n".join(rows) + "\n"))
    members.append(("meta/device.csv", '"property","value"\n"version","1.1.16"\n"deviceModel","Pixel 7"\n"deviceBrand","google"\n'))
    members.append(("meta/time.csv", '"event","experiment time","system time","system time text"\n"START",0.000000000E0,1714564800.000,"2024-05-01 12:00:00.000 UTC+00:00"\n'))
    zip_write(os.path.join(outdir, "phyphox.zip"), members)


def with_defects(rows, rnd):
    """Duplicate 1 % of rows exactly, stamp some neighbours equal, step some back by a few ms."""
    out = []
    for r in rows:
        out.append(list(r))
        p = rnd.random()
        if p < 0.01:
            out.append(list(r))  # delivered twice
        elif p < 0.015 and len(out) >= 2:
            out[-1][0] = out[-2][0]  # batched: same stamp as the one before
        elif p < 0.02 and len(out) >= 2:
            out[-1][0] = out[-2][0] - 2_000_000  # 2 ms back
    return out


def sensor_logger_csv(rows):
    """time,seconds_elapsed,z,y,x (as the app writes them)."""
    t0 = rows[0][0]
    lines = ["time,seconds_elapsed,z,y,x"]
    for t, x, y, z in rows:
        lines.append("%d,%s,%s,%s,%s" % (t, repr((t - t0) / 1e9), repr(z), repr(y), repr(x)))
    return "\n".join(lines) + "\n"


def gravity(times, acc, tau=0.5):
    """A low-pass of the acceleration (first-order, time constant tau seconds)."""
    g, out = None, []
    last = None
    for t, a in zip(times, acc):
        if g is None:
            g = list(a)
        else:
            dt = (t - last) / 1e9
            k = dt / (tau + dt)
            g = [g[i] + k * (a[i] - g[i]) for i in range(3)]
        last = t
        out.append(tuple(g))
    return out


def sensor_logger(outdir, times, acc, gyr, defects):
    epoch = 1_714_564_800_000_000_000 - times[0]  # 2024-05-01T12:00:00Z at the first sample
    et = [t + epoch for t in times]
    grav = gravity(times, acc)
    rnd = random.Random(16)
    total = [(t, *a) for t, a in zip(et, acc)]
    if defects:
        total = with_defects(total, rnd)
    user = [(t, a[0] - g[0], a[1] - g[1], a[2] - g[2]) for t, a, g in zip(et, acc, grav)]
    gr = [(t, *g) for t, g in zip(et, grav)]
    members = [("TotalAcceleration.csv", sensor_logger_csv(total)), ("Accelerometer.csv", sensor_logger_csv(user)), ("Gravity.csv", sensor_logger_csv(gr))]
    if gyr is not None:
        members.append(("Gyroscope.csv", sensor_logger_csv([(t + 3_000_000, *w) for t, w in zip(et, gyr)])))
    members.append(("Metadata.csv", "version,device name,recording time,platform,appVersion,standardisation\n3,Pixel 7,2024-05-01_12-00-00,android,1.40.0,false\n"))
    zip_write(os.path.join(outdir, "sensor-logger-android.zip"), members)
    # iOS: no TotalAcceleration; Accelerometer and Gravity in iOS's frame (every axis negated).
    d = os.path.join(outdir, "sensor-logger-ios")
    os.makedirs(d, exist_ok=True)
    neg = lambda rows: [(r[0], -r[1], -r[2], -r[3]) for r in rows]
    write(os.path.join(d, "Accelerometer.csv"), sensor_logger_csv(neg(user)))
    write(os.path.join(d, "Gravity.csv"), sensor_logger_csv(neg(gr)))
    if gyr is not None:
        write(os.path.join(d, "Gyroscope.csv"), sensor_logger_csv([(t + 3_000_000, *w) for t, w in zip(et, gyr)]))
    write(os.path.join(d, "Metadata.csv"), "version,device name,recording time,platform,appVersion,standardisation\n3,iPhone 13,2024-05-01_12-00-00,ios,1.40.0,false\n")


def bangle(outdir, times, acc, defects):
    t0 = times[0]
    rows = [[round((t - t0) / 1e6)] + [round(v / G * 8192) for v in a] for t, a in zip(times, acc)]
    if defects:
        rnd = random.Random(17)
        out = []
        for r in rows:
            out.append(list(r))
            if rnd.random() < 0.01:
                out.append(list(r))
        rows = out
    write(os.path.join(outdir, "bangle-accellog.csv"), "Time (ms),X,Y,Z\n" + "".join(",".join(str(v) for v in r) + "\n" for r in rows))


SCALE = 0.0023942  # m/s² per LSB: an s16 of ±78 m/s² (a ±8 g accelerometer)


def iio(outdir, times, acc):
    buf = io.BytesIO()
    for t, a in zip(times, acc):
        raw = [max(-32768, min(32767, round(v / SCALE))) for v in a]
        buf.write(struct.pack("<hhhxxq", raw[0], raw[1], raw[2], t))  # 6 bytes, 2 of padding, then the s64 at offset 8
    write(os.path.join(outdir, "iio-accel.bin"), buf.getvalue(), binary=True)
    layout = ",".join("accel_%s:le:s16/16>>0:%s" % (a, SCALE) for a in "xyz") + ",timestamp:le:s64/64>>0"
    write(os.path.join(outdir, "iio-accel.layout"), layout + "\n")
    snapshot = {"uri": "local:", "backend": "local", "devices": [{
        "id": "iio:device0", "name": "accel_3d", "label": None, "kind": "accelerometer", "access": None,
        "sampling_frequency_hz": None, "sampling_frequency_attribute": None, "available_frequencies_hz": [],
        "buffer_capable": True, "timestamp": {"channel": True, "clock": "boottime"},
        "fifo": {"present": False, "hwfifo_timeout": False, "timeout_s": None, "enabled": None, "watermark_min": None, "watermark_max": None},
        "step_counter": None, "activity": None,
        "channels": [{"id": "accel_%s" % a, "index": i, "format": "le:s16/16>>0", "scale": SCALE, "offset": 0} for i, a in enumerate("xyz")]
        + [{"id": "timestamp", "index": 3, "format": "le:s64/64>>0", "scale": None, "offset": None}]}]}
    write(os.path.join(outdir, "iio-devices.json"), json.dumps(snapshot, indent=1) + "\n")


def columns(outdir, times, acc, gyr):
    t0 = times[0]
    head = "t,ax,ay,az" + (",gx,gy,gz" if gyr is not None else "")
    lines = [head]
    for i, t in enumerate(times):
        v = ["%.6f" % ((t - t0) / 1e6)] + [repr(x / G) for x in acc[i]]
        if gyr is not None:
            v += [repr(w * 180 / math.pi) for w in gyr[i]]
        lines.append(",".join(v))
    write(os.path.join(outdir, "columns.csv"), "\n".join(lines) + "\n")
    args = "--columns time=t,x=ax,y=ay,z=az" + (",gx=gx,gy=gy,gz=gz" if gyr is not None else "") + " --time-unit ms --accel-unit g" + (" --gyro-unit deg/s" if gyr is not None else "")
    write(os.path.join(outdir, "columns.args"), args + "\n")


ALL = ["phyphox", "sensor-logger", "bangle", "iio", "columns"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input")
    ap.add_argument("outdir")
    ap.add_argument("--seconds", type=float, help="only the first S seconds")
    ap.add_argument("--defects", action="store_true", help="add real phone logs' defects (Sensor Logger, Bangle)")
    ap.add_argument("--only", help="comma-separated: " + ",".join(ALL))
    a = ap.parse_args()
    times, acc, gyr = read_recording(a.input)
    if a.seconds is not None:
        n = sum(1 for t in times if t - times[0] < a.seconds * 1e9)
        times, acc, gyr = times[:n], acc[:n], (gyr[:n] if gyr else None)
    os.makedirs(a.outdir, exist_ok=True)
    only = a.only.split(",") if a.only else ALL
    if "phyphox" in only:
        phyphox(a.outdir, times, acc, gyr)
        gz(os.path.join(a.outdir, "phyphox-comma.csv"))
    if "sensor-logger" in only:
        sensor_logger(a.outdir, times, acc, gyr, a.defects)
    if "bangle" in only:
        bangle(a.outdir, times, acc, a.defects)
        gz(os.path.join(a.outdir, "bangle-accellog.csv"))
    if "iio" in only:
        iio(a.outdir, times, acc)
        gz(os.path.join(a.outdir, "iio-accel.bin"))
    if "columns" in only:
        columns(a.outdir, times, acc, gyr)


if __name__ == "__main__":
    main()
