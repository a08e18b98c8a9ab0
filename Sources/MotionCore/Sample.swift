/// One scan of the motion sensors: a timestamp and the values read at that instant.
///
/// Timestamps are integer nanoseconds on the source's clock (IIO timestamps are
/// `s64` nanoseconds; recordings store them losslessly). Values are SI units:
/// acceleration in m/s² with gravity included, angular velocity in rad/s.
/// Whether `gyro` carries data is a property of the stream (``SensorSet``), not
/// of each sample; in accelerometer-only streams it is ``Vector3/zero``.
public struct Sample: Hashable, Sendable {
    /// Nanoseconds on the source clock.
    public var timestamp: Int64
    /// Acceleration, m/s², gravity included.
    public var accel: Vector3
    /// Angular velocity, rad/s (zero when the stream has no gyroscope).
    public var gyro: Vector3

    /// Creates a sample.
    @inlinable
    public init(timestamp: Int64, accel: Vector3, gyro: Vector3 = .zero) {
        self.timestamp = timestamp
        self.accel = accel
        self.gyro = gyro
    }

    /// Largest |timestamp| that replays and analyses accept: ``InputLimits/timestampLimit``
    /// (4 × 10¹⁸ ns, about 126 years), so that the difference of any two accepted timestamps (and a
    /// latency added to it) fits in Int64. (A computed constant, inlined: a stored global would
    /// cost a `swift_once` per access in other modules' hot loops.)
    @inlinable
    public static var timestampLimit: Int64 { InputLimits.timestampLimit }

    /// The timestamp in seconds (for display; analysis should keep integer nanoseconds).
    @inlinable
    public var seconds: Double { Double(timestamp) / 1e9 }
}

/// Which sensors a stream carries.
public struct SensorSet: OptionSet, Hashable, Sendable {
    /// The bits: 1 accelerometer, 2 gyroscope.
    public let rawValue: UInt8
    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A 3-axis accelerometer.
    public static let accel = SensorSet(rawValue: 1)
    /// A 3-axis gyroscope.
    public static let gyro = SensorSet(rawValue: 2)
}
