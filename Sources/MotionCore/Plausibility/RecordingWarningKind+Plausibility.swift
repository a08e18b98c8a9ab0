/// The kinds of warning of the plausibility rule (``PlausibilityRule``; docs/bad-input.md).
extension RecordingWarningKind {
    /// A recording with no samples (a header and no rows).
    public static let emptyStream = RecordingWarningKind(rawValue: "empty-stream")
    /// Accelerations whose median magnitude is far from 1 g (g, mg or raw counts read as m/s², no gravity).
    public static let implausibleAcceleration = RecordingWarningKind(rawValue: "implausible-acceleration")
    /// A sampling rate below the analyses' minimum, beyond any IMU's, or far off the declared one (a wrong time unit).
    public static let implausibleRate = RecordingWarningKind(rawValue: "implausible-rate")
    /// A gyroscope beyond physical range (deg/s read as rad/s).
    public static let implausibleRotation = RecordingWarningKind(rawValue: "implausible-rotation")

    /// The plausibility rule's kinds (the ones `--strict` makes errors).
    public static let plausibility: Set<RecordingWarningKind> = [.emptyStream, .implausibleAcceleration, .implausibleRate, .implausibleRotation]
}
