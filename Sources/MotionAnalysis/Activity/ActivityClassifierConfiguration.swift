/// The activity classifier's parameters: the feature window, the thresholds of the per-window rules
/// (each a physical quantity, see `docs/activity-classifier.md`), and the hysteresis (evidence
/// needed to change from one class to another, minimum hold times, back-dating limit).
///
/// The defaults come from physics and published ranges (gait periodicity, running impacts,
/// vehicle vibration), checked with HAPT leave-subjects-out cross-validation (`eval activity`).
public struct ActivityClassifierConfiguration: Sendable, Equatable {
    /// Largest gap between samples (ns) that is bridged by interpolation; a longer gap ends the
    /// current segment, becomes an `unknown` segment and restarts the analysis.
    public var maxInputGap: Int64 = 1_000_000_000

    // Per-window rules (see ActivityEvidence).

    /// Still: standard deviation of |a| over the window at most this (m/s²). Sensor noise is
    /// 0.02-0.06; sitting or standing sway up to about 0.15.
    public var stillMotion = 0.15
    /// Still, when a gyroscope is present: bias-removed rotation rate (rms, rad/s) at most this
    /// (twice this for a person at rest).
    public var stillRotation = 0.25
    /// Still, a person at rest (sitting or standing with the device in the hand, on the wrist or
    /// in a pocket): std of the smoothed |a| at most this (m/s²) when the motion is slow (its
    /// ``ActivityFeatures/vibrationShare`` below ``restVibration``) and not periodic. A hand
    /// holding a phone moves it by 0.2-0.5 m/s²; a device at rest needs ``stillMotion``.
    public var restMotion = 0.6
    /// Still, a person at rest: the vibration share (``ActivityFeatures/vibrationShare``, of
    /// |a|'s variation above about 2 Hz) below this. A body at rest sways and shifts below 2 Hz
    /// (0.1-0.4 with a sensor's own noise on top); an engine and a road shake the sensor at every
    /// frequency (0.44-0.86 on the rides here at their 10th percentile and median).
    public var restVibration = 0.45
    /// Vehicle: the vibration share at least this: a road's broadband shaking, not a body's slow
    /// motion. Below ``restVibration``, so that a rougher ride's calmer windows (a share of
    /// 0.3-0.45) keep their vehicle evidence.
    public var vehicleVibration = 0.3
    /// Gait: normalised autocorrelation of the vertical acceleration at a step or stride lag
    /// (0.24-1.6 s, 37-250 steps/min) at least this.
    public var gaitPeriodicity = 0.5
    /// Short gait: the periodicity of the window's last 2.4 s alone
    /// (``ActivityFeatures/shortPeriodicity``) counts as gait evidence when the vertical
    /// acceleration's standard deviation over those 2.4 s is at least this (m/s²): the bounce of
    /// a few strides between a chair and a turn, above what a road gives a seated passenger.
    public var shortGaitVertical = 1.0
    /// Short gait with a gyroscope: the rotation rate (rms over the window's last 2.4 s, rad/s)
    /// at least this for its rotational rhythm to count as gait. An arm's or a thigh's swing
    /// while walking turns the device at 1-3 rad/s; a person at rest, a seated passenger, well
    /// below 0.5. 100 turns the rule off.
    public var gaitRotation = 1.0
    /// Walking: vertical acceleration standard deviation at least this (m/s²).
    public var walkingMinimum = 0.6
    /// Running: vertical acceleration standard deviation at least this (m/s², about 0.7 g:
    /// running's flight phase gives impacts of 2-3 g, walking's 1.2-1.5 g).
    public var runningAmplitude = 7.0
    /// Vehicle: the vibration floor (lowest standard deviation of |a| over the four 1 s quarters of
    /// the window) at least this (m/s²): a running engine and the road never let it fall to
    /// the sensor's noise.
    public var vehicleFloor = 0.08
    /// Vehicle: standard deviation of |a| at most this (m/s²).
    public var vehicleMotion = 1.5
    /// Vehicle: attitude change within the window at most this (degrees): a seat or a holder keeps
    /// the sensor's attitude; braking and cornering at 0.1-0.2 g tilt apparent gravity 6-11°.
    public var vehicleTilt = 12.0
    /// Cycling: the vibration floor at least this (m/s²): pedalling moves the legs without pause.
    public var cyclingFloor = 0.5
    /// Cycling: standard deviation of |a| at most this (m/s²).
    public var cyclingMotion = 5.0

    // Hysteresis (see ActivityHysteresis).

    /// Evidence needed to change from one class (row, ``ActivityClass/index``) to another
    /// (column), in seconds of windows whose evidence is the new class (windows of other evidence
    /// take ``evidenceDecay`` seconds away). Walking starts after a few seconds; a vehicle after
    /// tens of seconds; a vehicle becomes still (or unknown) only after five minutes (a red light or a
    /// station stop stays vehicle; hands move in a vehicle too).
    public var enterSeconds: [[Double]] = [
        //  still walking running cycling vehicle unknown     (to)
        [     0,  0.8,      3,      15,     20,     30],  // from still
        [     3,    0,      3,      15,     40,      6],  // from walking
        [     3,    3,      0,      15,     40,      6],  // from running
        [    10,    4,      6,       0,     20,     15],  // from cycling
        [   300,    8,      8,      30,      0,    300],  // from vehicle
        [     6,  0.8,      3,      15,     20,      0],  // from unknown
    ]
    /// Evidence (s) needed to change from `still` or `unknown` to `walking`: the two entries of
    /// ``enterSeconds`` that decide how soon a walk is announced (1.2 s: three clear windows;
    /// 0.8 s, the default: two). A scalar, so that the cross-validation tunes it.
    public var walkingEntrySeconds: Double {
        get { enterSeconds[ActivityClass.still.index][ActivityClass.walking.index] }
        set {
            enterSeconds[ActivityClass.still.index][ActivityClass.walking.index] = newValue
            enterSeconds[ActivityClass.unknown.index][ActivityClass.walking.index] = newValue
        }
    }
    /// Minimum time (s) in a class before it may change (from ``ActivitySegment/start``).
    public var minimumHoldSeconds: [Double] = [3, 3, 3, 10, 20, 0]
    /// Seconds of evidence taken away from every other class per second of a window, times 1 −
    /// the window's membership of that class (`unknown`: the whole; leaky accumulation: a brief
    /// contrary window does not reset a run, and a doubtful one takes little).
    public var evidenceDecay = 0.5
    /// Longest back-dating of a new segment (s) before its announcement: bounds how long a step's
    /// vehicle decision may stay open (the step counter's extra hold).
    public var maxBackdateSeconds = 60.0

    /// Gait lost (s): walking or running ends when no window has shown gait for this long and no
    /// other class has its evidence yet; the time from the first window without gait on is then
    /// `unknown` (a walking segment is not held by windows that are none of the classes).
    public var gaitLostSeconds = 20.0

    /// Boarding time (s): the shortest time from the end of a window that showed gait to the start
    /// of a vehicle segment (opening a door and sitting down take longer). Steps in that time are
    /// never held for a vehicle decision.
    public var boardingSeconds = 10.0

    /// The defaults.
    public init() {}

    /// Window length in grid points (4 s at 25 Hz).
    public static let windowPoints = 100
    /// Hop between windows in grid points (0.4 s at 25 Hz).
    public static let hopPoints = 10
    /// Hop between windows in seconds (0.4 s): the least evidence a window can add.
    static let hopSeconds = Double(hopPoints) * Double(gridPeriod) / 1e9
    /// Grid period (ns): 40 ms, 25 Hz, as the step counter's.
    public static let gridPeriod: Int64 = 40_000_000

    /// Checks every value.
    /// - Throws: ``ActivityClassifierError/invalidConfiguration(_:)`` naming the first bad value.
    public func validate() throws(ActivityClassifierError) {
        func positive(_ v: Double, _ name: String) throws(ActivityClassifierError) {
            guard v.isFinite && v > 0 else { throw .invalidConfiguration("\(name) must be finite and > 0, got \(v)") }
        }
        guard maxInputGap >= Self.gridPeriod && maxInputGap <= 60_000_000_000 else {
            throw .invalidConfiguration("maxInputGap must be within 0.04...60 s, got \(Double(maxInputGap) / 1e9) s")
        }
        try positive(stillMotion, "stillMotion")
        try positive(stillRotation, "stillRotation")
        try positive(restMotion, "restMotion")
        for (v, name) in [(restVibration, "restVibration"), (vehicleVibration, "vehicleVibration")] {
            guard v.isFinite && v > 0 && v < 1.5 else { throw .invalidConfiguration("\(name) must be within (0, 1.5), got \(v)") }
        }
        try positive(walkingMinimum, "walkingMinimum")
        try positive(shortGaitVertical, "shortGaitVertical")
        try positive(gaitRotation, "gaitRotation")
        try positive(runningAmplitude, "runningAmplitude")
        try positive(vehicleFloor, "vehicleFloor")
        try positive(vehicleMotion, "vehicleMotion")
        try positive(cyclingFloor, "cyclingFloor")
        try positive(vehicleTilt, "vehicleTilt")
        try positive(cyclingMotion, "cyclingMotion")
        guard gaitPeriodicity.isFinite && gaitPeriodicity > 0 && gaitPeriodicity < 1 else {
            throw .invalidConfiguration("gaitPeriodicity must be within (0, 1), got \(gaitPeriodicity)")
        }
        guard stillMotion <= restMotion else { throw .invalidConfiguration("stillMotion must not be above restMotion") }
        guard walkingMinimum < runningAmplitude else { throw .invalidConfiguration("walkingMinimum must be below runningAmplitude") }
        guard vehicleFloor < cyclingFloor else { throw .invalidConfiguration("vehicleFloor must be below cyclingFloor") }
        let n = ActivityClass.allCases.count
        guard enterSeconds.count == n, enterSeconds.allSatisfy({ $0.count == n }) else {
            throw .invalidConfiguration("enterSeconds must be a \(n)x\(n) table")
        }
        for i in 0..<n {
            for j in 0..<n where i != j {
                let v = enterSeconds[i][j]
                guard v.isFinite && v >= Self.hopSeconds - 1e-9 && v <= 3600 else {
                    throw .invalidConfiguration("enterSeconds from \(ActivityClass(index: i)) to \(ActivityClass(index: j)) must be within 0.4...3600 s (one window's hop at least), got \(v)")
                }
            }
        }
        guard minimumHoldSeconds.count == n, minimumHoldSeconds.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 3600 }) else {
            throw .invalidConfiguration("minimumHoldSeconds must hold \(n) values within 0...3600 s")
        }
        guard evidenceDecay.isFinite && evidenceDecay >= 0 && evidenceDecay <= 10 else {
            throw .invalidConfiguration("evidenceDecay must be within 0...10, got \(evidenceDecay)")
        }
        guard boardingSeconds.isFinite && boardingSeconds >= 0 && boardingSeconds <= 600 else {
            throw .invalidConfiguration("boardingSeconds must be within 0...600 s, got \(boardingSeconds)")
        }
        guard gaitLostSeconds.isFinite && gaitLostSeconds >= 1 && gaitLostSeconds <= 600 else {
            throw .invalidConfiguration("gaitLostSeconds must be within 1...600 s, got \(gaitLostSeconds)")
        }
        guard maxBackdateSeconds.isFinite && maxBackdateSeconds >= 1 && maxBackdateSeconds <= 3600 else {
            throw .invalidConfiguration("maxBackdateSeconds must be within 1...3600 s, got \(maxBackdateSeconds)")
        }
    }
}
