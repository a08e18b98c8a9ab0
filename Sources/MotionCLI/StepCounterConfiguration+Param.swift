import MotionAnalysis
import MotionCore

extension StepCounterConfiguration {
    /// The accepted range of every parameter ``set(_:)`` takes, in its units (seconds for times):
    /// amplitudes are accelerations (m/s², above 0, within ``InputLimits/acceleration``), times
    /// are ``InputLimits/duration``s, counts whole numbers, booleans 0 or 1. ``validate()`` then
    /// checks how they fit together.
    static let parameterRules: [String: ValueRule] = {
        let amplitude = ValueRule("amplitude", unit: "m/s^2", 0...InputLimits.sampleMagnitude, excludingLower: true)
        let ratio = ValueRule("ratio", unit: "", 1...1_000_000)
        let fraction = ValueRule("fraction", unit: "", 0...1)
        let phase = ValueRule("fraction of the step period", unit: "", 0...1_000)
        let time = InputLimits.duration
        let count = InputLimits.positiveCount.narrowed(to: 1...1_000_000)
        let boolean = ValueRule("switch (0 or 1)", unit: "", 0...1)
        return [
            "minAmplitude": amplitude, "continuationAmplitude": amplitude, "weakRunAmplitude": amplitude,
            "alternatingRuns": boolean, "fillMissedSteps": boolean,
            "alternatingIntervalRatio": ratio, "weakRunIntervalRatio": ratio, "weakRunAmplitudeRatio": ratio,
            "maxIntervalRatio": ratio, "maxAmplitudeRatio": ratio, "slowRunIntervalRatio": ratio,
            "slowRunAmplitudeRatio": ratio, "maxGapInPeriods": ratio,
            "continuationMinPhase": phase,
            "confirmationSteps": count, "walkingCheckSteps": count,
            "confirmationSpan": time, "maxHold": time, "minStepInterval": time, "maxStepInterval": time,
            "maxInputGap": time, "periodicityWindow": time,
            "minPeriodicity": fraction, "minWalkingPeriodicity": fraction, "periodicityTolerance": fraction,
        ]
    }()

    /// Parameters that take whole numbers (counts) or 0/1 (switches).
    static let wholeNumberParameters: Set<String> = ["confirmationSteps", "walkingCheckSteps", "alternatingRuns", "fillMissedSteps"]

    /// Applies one `NAME=VALUE` override (times in seconds, other values plain numbers), for
    /// `motionbatch eval steps --param`.
    /// - Throws: ``CLIError/usage(_:)`` for an unknown name, a value outside the parameter's
    ///   rule (``parameterRules``, named in the message), or a configuration ``validate()`` refuses.
    mutating func set(_ assignment: String) throws {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let v = DecimalScanner.double(parts[1]) else {
            throw CLIError.usage("--param expects NAME=NUMBER, got '\(DiagnosticText.escaped(assignment.utf8))'")
        }
        // The name first: an unknown one has no rule, and its value must not reach the conversions below.
        guard let rule = Self.parameterRules[parts[0]] else {
            throw CLIError.usage("--param: unknown parameter '\(DiagnosticText.escaped(parts[0].utf8))' (\(Self.parameterNames.joined(separator: ", ")))")
        }
        guard rule.contains(v) else { throw CLIError.usage("--param \(parts[0]): \(rule.problem(parts[1]))") }
        if Self.wholeNumberParameters.contains(parts[0]), v != v.rounded() {
            throw CLIError.usage("--param \(parts[0]): expected a whole number, got \(parts[1])")
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
        case "minPeriodicity": minPeriodicity = v
        case "minWalkingPeriodicity": minWalkingPeriodicity = v
        case "walkingCheckSteps": walkingCheckSteps = Int(v)
        case "periodicityWindow": periodicityWindow = ns
        case "periodicityTolerance": periodicityTolerance = v
        default:
            throw CLIError.usage("--param: unknown parameter '\(DiagnosticText.escaped(parts[0].utf8))'")
        }
        do { try validate() } catch { throw CLIError.usage("--param \(assignment): \(error)") }
    }

    /// The names `set(_:)` accepts.
    static let parameterNames = ["minAmplitude", "weakRunAmplitude", "continuationAmplitude", "minPeriodicity", "minWalkingPeriodicity", "walkingCheckSteps",
                                 "periodicityWindow", "periodicityTolerance", "weakRunIntervalRatio",
                                 "weakRunAmplitudeRatio", "maxIntervalRatio", "maxAmplitudeRatio",
                                 "alternatingIntervalRatio", "continuationMinPhase", "confirmationSteps",
                                 "confirmationSpan", "slowRunIntervalRatio", "slowRunAmplitudeRatio", "maxHold",
                                 "minStepInterval", "maxStepInterval", "maxGapInPeriods", "maxInputGap",
                                 "alternatingRuns", "fillMissedSteps"]

    /// The current value of a parameter in the units `set(_:)` takes (seconds for times, 0/1 for
    /// booleans), or nil for an unknown name.
    func value(of name: String) -> Double? {
        func s(_ ns: Int64) -> Double { Double(ns) / 1e9 }
        switch name {
        case "minAmplitude": return minAmplitude
        case "continuationAmplitude": return continuationAmplitude
        case "alternatingRuns": return alternatingRuns ? 1 : 0
        case "fillMissedSteps": return fillMissedSteps ? 1 : 0
        case "alternatingIntervalRatio": return alternatingIntervalRatio
        case "weakRunAmplitude": return weakRunAmplitude
        case "weakRunIntervalRatio": return weakRunIntervalRatio
        case "weakRunAmplitudeRatio": return weakRunAmplitudeRatio
        case "continuationMinPhase": return continuationMinPhase
        case "confirmationSteps": return Double(confirmationSteps)
        case "confirmationSpan": return s(confirmationSpan)
        case "maxIntervalRatio": return maxIntervalRatio
        case "maxAmplitudeRatio": return maxAmplitudeRatio
        case "slowRunIntervalRatio": return slowRunIntervalRatio
        case "slowRunAmplitudeRatio": return slowRunAmplitudeRatio
        case "maxHold": return s(maxHold)
        case "minStepInterval": return s(minStepInterval)
        case "maxStepInterval": return s(maxStepInterval)
        case "maxGapInPeriods": return maxGapInPeriods
        case "maxInputGap": return s(maxInputGap)
        case "minPeriodicity": return minPeriodicity
        case "minWalkingPeriodicity": return minWalkingPeriodicity
        case "walkingCheckSteps": return Double(walkingCheckSteps)
        case "periodicityWindow": return s(periodicityWindow)
        case "periodicityTolerance": return periodicityTolerance
        default: return nil
        }
    }
}
