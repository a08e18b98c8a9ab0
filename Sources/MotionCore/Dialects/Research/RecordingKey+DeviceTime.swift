extension RecordingKey {
    /// Whether a device file's times are UTC or the device's local time: `utc` (the file gives its
    /// zone, or `--tz` did; `timestamp_ns` is then Unix epoch UTC) or `device-local` (no zone known:
    /// `timestamp_ns` is the local wall time read as if it were UTC). docs/research.md, "Time".
    public static let timeBasis = "time_basis"
    /// The device's offset from UTC the times were converted with (`-05:00`), and where it came
    /// from (`info.txt`, `--tz`).
    public static let utcOffset = "utc_offset"
}

/// The values of ``RecordingKey/timeBasis``.
public enum DeviceTimeBasis {
    /// Unix epoch UTC.
    public static let utc = "utc"
    /// The device's local wall time, read as if it were UTC (no zone in the file, none given).
    public static let deviceLocal = "device-local"

    /// The metadata for a file whose times are device-local: converted with `offset` when one is
    /// known (`source` says from where), else left local. Returns the metadata and the offset to
    /// apply (zero when none).
    static func metadata(offset: UTCOffset?, source: String) -> (metadata: [String: String], offset: UTCOffset) {
        guard let offset else {
            return ([RecordingKey.timeBasis: deviceLocal,
                     RecordingKey.clock: "the device's local time, read as if UTC (the file names no time zone; --tz ZONE converts it to UTC)"], .utc)
        }
        return ([RecordingKey.timeBasis: utc, RecordingKey.utcOffset: "\(offset) (\(source))",
                 RecordingKey.clock: "Unix epoch, UTC (the device's local time less its offset \(offset) from \(source))"], offset)
    }
}
