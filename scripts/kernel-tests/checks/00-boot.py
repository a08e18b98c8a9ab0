"""Checks 00-boot: hid-sensor modules loaded and /dev/uhid present in the guest."""

REQUIRED = ["uhid", "hid_sensor_hub", "hid_sensor_accel_3d", "hid_sensor_gyro_3d",
            "hid_sensor_iio_common", "hid_sensor_trigger", "industrialio"]


def check(result, ctx):
    problems = [f"module {m} not loaded" for m in REQUIRED if m not in result.get("modules", [])]
    if not result.get("uhid"):
        problems.append("/dev/uhid missing in the guest")
    return problems, {"modules": len(result.get("modules", []))}
