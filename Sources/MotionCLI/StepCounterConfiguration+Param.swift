import MotionAnalysis

extension StepCounterConfiguration {
    /// Applies one `NAME=VALUE` override (times in seconds, other values plain numbers), for
    /// `motionbatch eval steps --param`.
    /// - Throws: ``CLIError/usage(_:)`` for an unknown name or a bad value.
    mutating func set(_ assignment: String) throws {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let v = Double(parts[1]), v.isFinite else {
            throw CLIError.usage("--param expects NAME=NUMBER, got '\(assignment)'")
        }
        let ns = Int64((v * 1e9).rounded())
        switch parts[0] {
        case "minAmplitude": minAmplitude = v
        case "continuationAmplitude": continuationAmplitude = v
        case "alternatingRuns": alternatingRuns = v != 0
        case "fillMissedSteps": fillMissedSteps = v != 0
        case "alternatingIntervalRatio": alternatingIntervalRatio = v
        case "weakRunAmplitude": weakRunAmplitude = v
        case "weakRunIntervalRatio": weakRunIntervalRatio = v
        case "weakRunAmplitudeRatio": weakRunAmplitudeRatio = v
        case "continuationMinPhase": continuationMinPhase = v
        case "confirmationSteps": confirmationSteps = Int(v)
        case "confirmationSpan": confirmationSpan = ns
        case "maxIntervalRatio": maxIntervalRatio = v
        case "maxAmplitudeRatio": maxAmplitudeRatio = v
        case "slowRunIntervalRatio": slowRunIntervalRatio = v
        case "slowRunAmplitudeRatio": slowRunAmplitudeRatio = v
        case "maxHold": maxHold = ns
        case "minStepInterval": minStepInterval = ns
        case "maxStepInterval": maxStepInterval = ns
        case "maxGapInPeriods": maxGapInPeriods = v
        case "maxInputGap": maxInputGap = ns
        default:
            throw CLIError.usage("--param: unknown parameter '\(parts[0])' (minAmplitude, confirmationSteps, confirmationSpan, maxIntervalRatio, maxAmplitudeRatio, maxHold, minStepInterval, maxStepInterval, maxGapInPeriods, maxInputGap)")
        }
        do { try validate() } catch { throw CLIError.usage("--param \(assignment): \(error)") }
    }
}
