import MotionAnalysis
import MotionCore

/// The `--param NAME=VALUE` option of `steps` and `eval steps`: step-counter parameters overridden
/// for experiments (names and units: ``MotionAnalysis/StepCounterConfiguration/set(_:to:)``).
enum StepParameters {
    /// The default configuration with every `NAME=VALUE` of `assignments` applied in order.
    /// - Throws: ``CLIError/usage(_:)`` for a malformed assignment, an unknown name or a bad value.
    static func configuration(_ assignments: [String], base: StepCounterConfiguration = StepCounterConfiguration()) throws(CLIError) -> StepCounterConfiguration {
        var c = base
        for a in assignments { try apply(a, to: &c) }
        return c
    }

    /// Applies one `NAME=VALUE`.
    /// - Throws: ``CLIError/usage(_:)`` as ``configuration(_:base:)``.
    static func apply(_ assignment: String, to c: inout StepCounterConfiguration) throws(CLIError) {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        // The recordings' number grammar: no hexadecimal, no inf or nan.
        guard parts.count == 2, let v = DecimalScanner.double(parts[1]) else {
            throw .usage("--param expects NAME=NUMBER, got '\(DiagnosticText.escaped(assignment.utf8))'")
        }
        do { try c.set(parts[0], to: v) } catch {
            throw .usage("--param \(DiagnosticText.escaped(assignment.utf8)): \(error)")
        }
    }
}
