/// The one rule for each kind of value MotionBatch takes from outside: recordings (rows and
/// header), command-line options and board profiles all check against these, and every limit is
/// named in the message of a value that breaks it. With values inside them, all time arithmetic
/// (timestamps plus durations, differences of timestamps) fits in `Int64` nanoseconds, and no
/// result can become infinite or NaN.
public enum InputLimits {
    /// Largest accepted |timestamp| in nanoseconds: 4 × 10^18 ns, about ±126 years around the
    /// clock's zero (boot time, the epoch — 2025 is 1.7 × 10^18 —, a recording's start). The span
    /// between any two accepted timestamps (≤ 8 × 10^18), even plus a ``duration`` (≤ 10^18 ns),
    /// stays within `Int64` (9.2 × 10^18).
    ///
    /// A computed constant, inlined: a stored global read in another module's hot loop costs a
    /// `swift_once` per access (measured on the step counter's validation loop).
    @inlinable
    public static var timestampLimit: Int64 { 4_000_000_000_000_000_000 }

    /// Accepted timestamps (ns).
    public static var timestampNanoseconds: ClosedRange<Int64> { -timestampLimit...timestampLimit }

    /// The timestamp limit as text, for messages.
    public static let timestampRangeText = "±4000000000000000000 ns (±4e18 ns, about ±126 years)"

    /// The time-in-seconds limit (plain CSV `time_s`) as text.
    public static let secondsRangeText = "±4000000000 s (±4e9 s, about ±126 years)"

    /// Whether `t` (ns) is an accepted timestamp.
    @inlinable
    public static func containsTimestamp(_ t: Int64) -> Bool { t >= -timestampLimit && t <= timestampLimit }

    /// Largest accepted |sample value|: 10^6 m/s² (about 100 000 g) for accelerometers and 10^6
    /// rad/s for gyroscopes, far beyond any sensor's full scale (±400 g, ±6000 °/s), and small
    /// enough that squares and sums of values stay finite.
    public static let sampleMagnitude = 1e6

    /// Accelerations (m/s²).
    public static let acceleration = ValueRule("acceleration", unit: "m/s^2", -sampleMagnitude...sampleMagnitude)

    /// Angular rates (rad/s).
    public static let angularRate = ValueRule("angular rate", unit: "rad/s", -sampleMagnitude...sampleMagnitude)

    /// Sampling rates (Hz): a header's `requested_hz`/`actual_hz`, `--rate`, `--rates`.
    public static let rate = ValueRule("sampling rate", unit: "Hz", 0.001...1_000_000)

    /// Durations and times of the sample clock (s): latencies, `--from`/`--to`, `--duration`, fsync
    /// intervals, step-counter times. 10^9 s is about 31.7 years.
    public static let duration = ValueRule("duration", unit: "s", 0...1_000_000_000)

    /// Durations that must be longer than zero.
    public static let positiveDuration = ValueRule("duration", unit: "s", 0...1_000_000_000, excludingLower: true)

    /// Counts given as options or in files (`--device-deliveries`, capture statistics): up to
    /// 10^12, exact in a `Double` and in `Int`.
    public static let count = ValueRule("count", unit: "", 0...1_000_000_000_000)

    /// Counts that must be at least 1 (`--batch`, `--samples`, FIFO capacities).
    public static let positiveCount = ValueRule("count", unit: "", 1...1_000_000_000_000)
}
