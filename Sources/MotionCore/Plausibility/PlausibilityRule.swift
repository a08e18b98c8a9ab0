/// The one rule that questions an input after it was read and before it is analysed
/// (docs/bad-input.md, "Plausibility"): what a stream must look like for its units and its clock
/// to be believed, and what the user said about them (so that a message can name the fix).
///
/// - **empty-stream**: no samples at all.
/// - **implausible-acceleration**: the median |a| over the whole stream outside
///   ``plausibleGravity`` (0.5-2 g, in m/s²): data in g, mg, raw counts, or without gravity,
///   each recognised by its median (and, to tell g from linear acceleration, its 10th percentile).
/// - **implausible-rate**: the rate of the median interval below ``minimumRateHz`` less
///   ``rateTolerance`` (Bangle.js's nominal 12.5 Hz runs at 12.3-12.6 Hz), above
///   ``maximumRateHz``, or off the declared rate by more than a factor of 2; with a time unit
///   the user chose, the unit that would give a plausible rate is named.
/// - **implausible-rotation**: a gyroscope whose 99th percentile |ω| is beyond 2000 °/s
///   (``maximumAngularRate``): deg/s read as rad/s.
///
/// The checks other than empty-stream need ``minimumSamples`` samples.
public struct PlausibilityRule: Sendable, Equatable {
    /// The analyses' lowest rate (MotionAnalysis's `AnalysisRequirement.all`), Hz.
    public var minimumRateHz: Double
    /// Fraction of ``minimumRateHz`` a stream may fall short of it by (0.2: Bangle's 12.5 Hz at 10 Hz still passes).
    public var rateTolerance: Double = 0.2
    /// Above any IMU's rate (Hz): 10 kHz.
    public var maximumRateHz: Double = 10_000
    /// Median |a| a stream with gravity has, m/s² (0.5-2 g).
    public var plausibleGravity: ClosedRange<Double> = (0.5 * AccelerationUnit.standardGravityValue)...(2 * AccelerationUnit.standardGravityValue)
    /// Beyond a gyroscope's largest full scale in common use (2000 °/s), rad/s, for the 99th percentile.
    public var maximumAngularRate: Double = 2000 * Double.pi / 180
    /// Fewest samples the value and rate checks judge.
    public var minimumSamples = 10
    /// The time unit the user gave (`--time-unit`), nil when the dialect fixes it.
    public var timeUnit: TimeUnit?
    /// The acceleration unit the user gave (`--accel-unit`), nil when the dialect fixes it.
    public var accelUnit: AccelerationUnit?
    /// The gyroscope unit the user gave (`--gyro-unit`), nil when the dialect fixes it.
    public var gyroUnit: AngularRateUnit?
    /// Whether the user gives the columns of an arbitrary CSV (`--columns`), so the unit options apply.
    public var columns = false
    /// Whether the input is a raw IIO buffer (`--layout`), so the fix for a missing scale is its SCALE.
    public var rawLayout = false
    /// Whether that layout gives the acceleration channels a SCALE (then a wrong byte order or
    /// scale is the likelier mistake).
    public var rawLayoutScaled = false

    /// A rule for analyses that need `minimumRateHz`.
    public init(minimumRateHz: Double) {
        self.minimumRateHz = minimumRateHz
    }
}
