import MotionCore

/// What discovery found about one IIO device that carries motion data: its channels, scan
/// formats, conversion, rates, hardware FIFO, timestamp and step counter. Plain data, libiio-free.
public struct SensorDescription: Hashable, Sendable {
    /// Which motion quantities a device measures.
    public enum Kind: String, Hashable, Sendable {
        /// Acceleration (`accel`) only.
        case accelerometer
        /// Angular velocity (`anglvel`) only.
        case gyroscope
        /// Both in one device (one scan carries both).
        case imu
        /// Only a step counter (`steps`), possibly with activity channels.
        case stepCounter = "step-counter"
        /// Only activity channels (`activity_still`, `activity_walking`, ...).
        case activityDetector = "activity-detector"
    }

    /// One channel.
    public struct Channel: Hashable, Sendable {
        /// Channel id (`accel_x`, `timestamp`, `steps`).
        public var id: String
        /// Scan index, nil when not a scan element.
        public var index: Int?
        /// Scan format, nil when not a scan element.
        public var format: ScanElementFormat?
        /// `*_scale`, SI units per raw unit, when readable.
        public var scale: Double?
        /// `*_offset`, when present.
        public var offset: Double?
        /// Channel attribute names.
        public var attributes: [String]
    }

    /// Hardware-FIFO abilities exposed under `buffer/`.
    public struct FIFO: Hashable, Sendable {
        /// `buffer/hwfifo_timeout` exists (writable report latency, seconds).
        public var hasTimeout: Bool
        /// Its current value, seconds.
        public var timeout: Double?
        /// `buffer/hwfifo_enabled`, when present.
        public var enabled: Bool?
        /// `buffer/hwfifo_watermark_min`, when present.
        public var watermarkMin: Int?
        /// `buffer/hwfifo_watermark_max`, when present.
        public var watermarkMax: Int?
        /// Whether the device can batch in hardware at all.
        public var isPresent: Bool { hasTimeout || watermarkMax != nil || enabled != nil }
    }

    /// A hardware step counter (`in_steps_*`).
    public struct StepCounter: Hashable, Sendable {
        /// Attribute names of the `steps` channel (`input`, `en`, `debounce_count`, ...).
        public var attributes: [String]
        /// `in_steps_input` when readable.
        public var steps: Int?
        /// `in_steps_en` when readable.
        public var enabled: Bool?
    }

    /// Hardware activity recognition (`in_activity_<modifier>_input`, e.g. bma400, mma9553):
    /// per activity the chip's confidence in percent (Linux ABI: 0-100; most chips give 0 or 100).
    public struct Activity: Hashable, Sendable {
        /// One activity channel.
        public struct Channel: Hashable, Sendable {
            /// The modifier: `still`, `walking`, `jogging`, `running` (others are kept as named).
            public var modifier: String
            /// `in_activity_<modifier>_input` when readable (percent).
            public var confidence: Int?

            /// Creates a channel reading.
            public init(modifier: String, confidence: Int?) {
                self.modifier = modifier
                self.confidence = confidence
            }
        }

        /// The channels, in libiio's order.
        public var channels: [Channel]

        /// Creates the readings of a device's activity channels.
        public init(channels: [Channel]) { self.channels = channels }

        /// The modifier with the highest readable confidence above 0 (the first on a tie), or nil.
        public var current: String? {
            var best: Channel?
            for c in channels { if let v = c.confidence, v > 0, v > (best?.confidence ?? 0) { best = c } }
            return best?.modifier
        }
    }

    /// Kernel id, `iio:deviceN`.
    public var id: String
    /// Driver name (`accel_3d`, `lsm6dsm_accel`).
    public var name: String
    /// Device label, when any.
    public var label: String?
    /// What it measures.
    public var kind: Kind
    /// All channels, in libiio's order.
    public var channels: [Channel]
    /// Current sampling frequency, Hz, when readable.
    public var samplingFrequency: Double?
    /// Which attribute holds the sampling frequency (`sampling_frequency` on the device or
    /// the accel/anglvel channels), nil when none.
    public var samplingFrequencyAttribute: String?
    /// `*sampling_frequency_available`, Hz, ascending (empty when the driver has no list).
    public var availableFrequencies: [Double]
    /// A `timestamp` scan element exists.
    public var hasTimestamp: Bool
    /// `current_timestamp_clock`, when present (`realtime`, `monotonic`, `boottime`).
    public var timestampClock: String?
    /// Some channels are scan elements: the device can stream through a buffer.
    public var isBufferCapable: Bool
    /// Hardware FIFO.
    public var fifo: FIFO
    /// Hardware step counter, when any.
    public var stepCounter: StepCounter?
    /// Hardware activity channels, when any.
    public var activity: Activity?

    /// The channel with this id.
    public func channel(_ id: String) -> Channel? { channels.first { $0.id == id } }

    /// Scan-element channels, by scan index.
    public var scanChannels: [Channel] { channels.filter { $0.format != nil }.sorted { ($0.index ?? 0) < ($1.index ?? 0) } }

    /// Whether a device measures acceleration.
    public var hasAccel: Bool { kind == .accelerometer || kind == .imu }
    /// Whether a device measures angular velocity.
    public var hasGyro: Bool { kind == .gyroscope || kind == .imu }
}
