import MotionAnalysis

/// The `--activity-param NAME=VALUE` option of `activity` and `eval activity`: classifier
/// parameters overridden for experiments (names: ``MotionAnalysis/ActivityClassifierConfiguration/parameterNames``).
enum ActivityParameters {
    /// The default configuration with every `NAME=VALUE` of `assignments` applied in order.
    /// - Throws: ``CLIError/usage(_:)`` for a malformed assignment, an unknown name or a bad value.
    static func configuration(_ assignments: [String]) throws(CLIError) -> ActivityClassifierConfiguration {
        var c = ActivityClassifierConfiguration()
        for a in assignments {
            let parts = a.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let v = Double(parts[1]) else {
                throw .usage("--activity-param expects NAME=NUMBER, got '\(a)'")
            }
            do { try c.set(parts[0], to: v) } catch {
                throw .usage("--activity-param \(a): \(error)")
            }
        }
        return c
    }
}
