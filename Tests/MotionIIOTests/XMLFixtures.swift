/// Device descriptions in libiio's XML format (as `iio_info -x` / `iio_context_get_xml` write
/// them), modelled on real drivers, plus the attribute values the XML backend cannot carry.
enum XMLFixtures {
    static let header = """
    <?xml version="1.0" encoding="utf-8"?>
    <!DOCTYPE context [<!ELEMENT context (device | context-attribute)*><!ELEMENT context-attribute EMPTY><!ELEMENT device (channel | attribute | debug-attribute | buffer-attribute)*><!ELEMENT channel (scan-element?, attribute*)><!ELEMENT attribute EMPTY><!ELEMENT scan-element EMPTY><!ELEMENT debug-attribute EMPTY><!ELEMENT buffer-attribute EMPTY><!ATTLIST context name CDATA #REQUIRED description CDATA #IMPLIED><!ATTLIST context-attribute name CDATA #REQUIRED value CDATA #REQUIRED><!ATTLIST device id CDATA #REQUIRED name CDATA #IMPLIED label CDATA #IMPLIED><!ATTLIST channel id CDATA #REQUIRED type (input|output) #REQUIRED name CDATA #IMPLIED><!ATTLIST scan-element index CDATA #REQUIRED format CDATA #REQUIRED scale CDATA #IMPLIED><!ATTLIST attribute name CDATA #REQUIRED filename CDATA #IMPLIED value CDATA #IMPLIED><!ATTLIST debug-attribute name CDATA #REQUIRED value CDATA #IMPLIED><!ATTLIST buffer-attribute name CDATA #REQUIRED value CDATA #IMPLIED>]>
    """

    static func axis(_ type: String, _ axis: String, index: Int, format: String, shared: [String] = ["scale", "sampling_frequency"]) -> String {
        var s = "<channel id=\"\(type)_\(axis)\" type=\"input\"><scan-element index=\"\(index)\" format=\"\(format)\"/>"
        s += "<attribute name=\"raw\" filename=\"in_\(type)_\(axis)_raw\"/>"
        for a in shared { s += "<attribute name=\"\(a)\" filename=\"in_\(type)_\(a)\"/>" }
        return s + "</channel>"
    }

    static func timestamp(index: Int) -> String {
        "<channel id=\"timestamp\" type=\"input\"><scan-element index=\"\(index)\" format=\"le:s64/64&gt;&gt;0\"/></channel>"
    }

    /// st_lsm6dsx: separate accel and gyro devices, s16 axes, timestamp, FIFO watermark attributes.
    static let lsm6dsx = header + """
    <context name="xml" description="lsm6dsx test">
    <device id="iio:device0" name="lsm6dsm_accel">
    \(axis("accel", "x", index: 0, format: "le:s16/16&gt;&gt;0", shared: ["scale"]))
    \(axis("accel", "y", index: 1, format: "le:s16/16&gt;&gt;0", shared: ["scale"]))
    \(axis("accel", "z", index: 2, format: "le:s16/16&gt;&gt;0", shared: ["scale"]))
    \(timestamp(index: 3))
    <attribute name="sampling_frequency"/><attribute name="sampling_frequency_available"/><attribute name="current_timestamp_clock"/>
    <buffer-attribute name="length"/><buffer-attribute name="enable"/><buffer-attribute name="watermark"/>
    <buffer-attribute name="hwfifo_enabled"/><buffer-attribute name="hwfifo_watermark_min"/><buffer-attribute name="hwfifo_watermark_max"/>
    </device>
    <device id="iio:device1" name="lsm6dsm_gyro">
    \(axis("anglvel", "x", index: 0, format: "le:s16/16&gt;&gt;0", shared: ["scale"]))
    \(axis("anglvel", "y", index: 1, format: "le:s16/16&gt;&gt;0", shared: ["scale"]))
    \(axis("anglvel", "z", index: 2, format: "le:s16/16&gt;&gt;0", shared: ["scale"]))
    \(timestamp(index: 3))
    <attribute name="sampling_frequency"/><attribute name="sampling_frequency_available"/>
    <buffer-attribute name="hwfifo_watermark_max"/>
    </device>
    <device id="trigger0" name="lsm6dsm-trigger"/>
    </context>
    """

    static let lsm6dsxValues: [String: String] = [
        "iio:device0/in_accel_scale": "0.000598",
        "iio:device0/sampling_frequency": "104.000000",
        "iio:device0/sampling_frequency_available": "12.500000 26.000000 52.000000 104.000000 208.000000 416.000000",
        "iio:device0/current_timestamp_clock": "realtime\n",
        "iio:device0/buffer/hwfifo_enabled": "1",
        "iio:device0/buffer/hwfifo_watermark_min": "1",
        "iio:device0/buffer/hwfifo_watermark_max": "1365",
        "iio:device1/in_anglvel_scale": "0.000152716",
        "iio:device1/sampling_frequency": "52",
        "iio:device1/sampling_frequency_available": "12.5 26 52 104 208 416",
        "iio:device1/buffer/hwfifo_watermark_max": "1365",
    ]

    /// hid-sensor-accel-3d behind a sensor hub: s32 axes, shared in_accel_* attributes, hwfifo_timeout.
    static let hidAccel3D = header + """
    <context name="xml" description="hid sensor hub">
    <device id="iio:device0" name="accel_3d">
    \(axis("accel", "x", index: 0, format: "le:s32/32&gt;&gt;0", shared: ["scale", "offset", "sampling_frequency", "hysteresis"]))
    \(axis("accel", "y", index: 1, format: "le:s32/32&gt;&gt;0", shared: ["scale", "offset", "sampling_frequency", "hysteresis"]))
    \(axis("accel", "z", index: 2, format: "le:s32/32&gt;&gt;0", shared: ["scale", "offset", "sampling_frequency", "hysteresis"]))
    \(timestamp(index: 3))
    <attribute name="current_timestamp_clock"/>
    <buffer-attribute name="length"/><buffer-attribute name="enable"/><buffer-attribute name="watermark"/>
    <buffer-attribute name="hwfifo_timeout"/><buffer-attribute name="hwfifo_enabled"/>
    </device>
    <device id="trigger0" name="accel_3d-dev0"/>
    </context>
    """

    static let hidValues: [String: String] = [
        "iio:device0/in_accel_scale": "0.009806650",
        "iio:device0/in_accel_offset": "0",
        "iio:device0/in_accel_sampling_frequency": "100.000000",
        "iio:device0/current_timestamp_clock": "monotonic",
        "iio:device0/buffer/hwfifo_timeout": "0.000000",
        "iio:device0/buffer/hwfifo_enabled": "0",
    ]

    /// bma400: 12-bit accel in 16-bit storage, a step counter channel, activity channels
    /// (`in_activity_{still,walking,running}_input`, confidence in percent), available rates list.
    static let bma400 = header + """
    <context name="xml" description="bma400">
    <device id="iio:device2" name="bma400">
    \(axis("accel", "x", index: 0, format: "le:s12/16&gt;&gt;0", shared: ["scale", "sampling_frequency", "sampling_frequency_available"]))
    \(axis("accel", "y", index: 1, format: "le:s12/16&gt;&gt;0", shared: ["scale", "sampling_frequency", "sampling_frequency_available"]))
    \(axis("accel", "z", index: 2, format: "le:s12/16&gt;&gt;0", shared: ["scale", "sampling_frequency", "sampling_frequency_available"]))
    <channel id="temp" type="input"><attribute name="raw" filename="in_temp_raw"/></channel>
    <channel id="steps" type="input"><attribute name="input" filename="in_steps_input"/><attribute name="en" filename="in_steps_en"/></channel>
    <channel id="activity_still" type="input"><attribute name="input" filename="in_activity_still_input"/></channel>
    <channel id="activity_walking" type="input"><attribute name="input" filename="in_activity_walking_input"/></channel>
    <channel id="activity_running" type="input"><attribute name="input" filename="in_activity_running_input"/></channel>
    \(timestamp(index: 4))
    </device>
    </context>
    """

    static let bma400Values: [String: String] = [
        "iio:device2/in_accel_scale": "0.009576806",
        "iio:device2/in_accel_sampling_frequency": "100",
        "iio:device2/in_accel_sampling_frequency_available": "12.5 25 50 100 200 400 800",
        "iio:device2/in_steps_input": "1234",
        "iio:device2/in_steps_en": "1",
        "iio:device2/in_activity_still_input": "0",
        "iio:device2/in_activity_walking_input": "100",
        "iio:device2/in_activity_running_input": "0",
    ]

    /// mma9553-like pedometer: no accelerometer channels, a step counter and the four activity
    /// channels (`jogging` included); one value out of the ABI's 0-100 range.
    static let activityOnly = header + """
    <context name="xml" description="pedometer">
    <device id="iio:device3" name="mma9553">
    <channel id="activity_still" type="input"><attribute name="input" filename="in_activity_still_input"/></channel>
    <channel id="activity_walking" type="input"><attribute name="input" filename="in_activity_walking_input"/></channel>
    <channel id="activity_jogging" type="input"><attribute name="input" filename="in_activity_jogging_input"/></channel>
    <channel id="activity_running" type="input"><attribute name="input" filename="in_activity_running_input"/></channel>
    </device>
    </context>
    """

    static let activityOnlyValues: [String: String] = [
        "iio:device3/in_activity_still_input": "0",
        "iio:device3/in_activity_walking_input": "20",
        "iio:device3/in_activity_jogging_input": "180",
    ]

    /// A light sensor only: not a motion device.
    static let lightOnly = header + """
    <context name="xml"><device id="iio:device0" name="als"><channel id="illuminance" type="input"><attribute name="raw" filename="in_illuminance_raw"/></channel></device></context>
    """
}
