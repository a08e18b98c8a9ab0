/// Which of the two accepted CSV dialects a recording uses.
public enum RecordingFormat: Hashable, Sendable {
    /// MotionBatch's own format: a `# key: value` header block starting with
    /// `# motionbatch-recording: VERSION`, then `timestamp_ns,...` (see docs/recording-format.md).
    case motionbatch(version: Int)
    /// The plain CSV of the shared datasets: `time_s,accel_x,...` with no header block.
    case plain

    /// The format version this code reads and writes.
    public static let currentVersion = 1

    /// The current MotionBatch format.
    public static let current = RecordingFormat.motionbatch(version: currentVersion)

    /// The name of the time column in this dialect (`timestamp_ns` or `time_s`).
    public var timeColumn: String {
        switch self {
        case .motionbatch: return "timestamp_ns"
        case .plain: return "time_s"
        }
    }
}

/// The standard `# key: value` metadata keys of a MotionBatch recording (any other key is kept as is).
public enum RecordingKey {
    /// First line of every recording: the format version (`1`).
    public static let formatVersion = "motionbatch-recording"
    /// The device name (`lsm6dsl`, `Samsung Galaxy S II`).
    public static let device = "device"
    /// Where the data came from: an IIO context URI (`local:`, `ip:host`) plus device, or a file/dataset.
    public static let source = "source"
    /// The clock of `timestamp_ns` (`CLOCK_BOOTTIME`, `relative`).
    public static let clock = "clock"
    /// The sampling frequency asked for, Hz.
    public static let requestedHz = "requested_hz"
    /// The sampling frequency the device actually ran at, Hz.
    public static let actualHz = "actual_hz"
    /// How samples were batched on the way to the CPU (`samples 32`, `latency 0.5 s`, `none`).
    public static let batching = "batching"
    /// When the first sample was taken, ISO 8601 UTC (`2026-11-29T18:25:06Z`).
    public static let startUTC = "start_utc"
    /// Prefix of per-channel descriptions: `channel.accel_x: m/s^2 scale=0.000598`.
    public static let channelPrefix = "channel."
}

/// What a recording declares before its first row: dialect, columns and metadata.
public struct RecordingHeader: Sendable, Equatable {
    /// The dialect (and version) of the file.
    public var format: RecordingFormat
    /// The sensors with columns in the file (always includes `.accel`).
    public var sensors: SensorSet
    /// Whether the file has a `label` column.
    public var hasLabels: Bool
    /// The `# key: value` lines, without the version line (empty for plain CSV).
    public var metadata: [String: String]

    /// Creates a header.
    /// - Parameters:
    ///   - format: dialect; ``RecordingFormat/current`` for new recordings.
    ///   - sensors: `.accel` or `[.accel, .gyro]`.
    ///   - hasLabels: whether rows carry a `label` column.
    ///   - metadata: `# key: value` pairs (see ``RecordingKey``); keys must not contain `:` or newlines.
    public init(format: RecordingFormat = .current, sensors: SensorSet, hasLabels: Bool = false, metadata: [String: String] = [:]) {
        self.format = format
        self.sensors = sensors.union(.accel)
        self.hasLabels = hasLabels
        self.metadata = metadata
    }

    /// The column names in file order, e.g. `timestamp_ns,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,label`.
    public var columns: [String] {
        var c = [format.timeColumn, "accel_x", "accel_y", "accel_z"]
        if sensors.contains(.gyro) { c += ["gyro_x", "gyro_y", "gyro_z"] }
        if hasLabels { c.append("label") }
        return c
    }

    /// The declared sampling frequency in Hz: `actual_hz` if present, else `requested_hz`, else
    /// `nil` (also for a value outside ``InputLimits/rate``, which the reader refuses).
    public var declaredRate: Double? {
        for key in [RecordingKey.actualHz, RecordingKey.requestedHz] {
            if let text = metadata[key], let v = DecimalScanner.double(String(text.split(separator: " ").first ?? "")),
               InputLimits.rate.contains(v) {
                return v
            }
        }
        return nil
    }

    /// The unit of a data column (`ns`, `s`, `m/s^2`, `rad/s`), or `nil` for `label`.
    static func unit(of column: String) -> String? {
        switch column {
        case "timestamp_ns": return "ns"
        case "time_s": return "s"
        case "accel_x", "accel_y", "accel_z": return "m/s^2"
        case "gyro_x", "gyro_y", "gyro_z": return "rad/s"
        default: return nil
        }
    }
}
