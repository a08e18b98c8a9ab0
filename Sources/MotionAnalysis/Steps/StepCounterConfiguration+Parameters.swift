extension StepCounterConfiguration {
    /// Sets the parameter `name` (as in ``parameterNames``) to `value`: times in seconds, booleans
    /// 0 (false) or anything else (true), counts rounded down, other values as they are. For
    /// experiments (`motionbatch eval steps --param NAME=VALUE`).
    /// - Throws: ``StepCounterError/unknownParameter(_:)``, or
    ///   ``StepCounterError/invalidConfiguration(_:)`` when the value is not finite, beyond ±10⁹, or
    ///   makes the configuration invalid (nothing is changed then).
    public mutating func set(_ name: String, to v: Double) throws(StepCounterError) {
        guard Self.parameterNames.contains(name) else { throw .unknownParameter(name) }
        // Beyond 10^9 (s: 31 years) a time no longer fits in Int64 nanoseconds.
        guard v.isFinite, v.magnitude <= 1e9 else { throw .invalidConfiguration("\(name) must be a finite number within ±1e9, got \(v)") }
        var c = self
        try c.assign(name, v)
        try c.validate()
        self = c
    }

    private mutating func assign(_ name: String, _ v: Double) throws(StepCounterError) {
        let ns = Int64((v * 1e9).rounded())
        switch name {
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
            throw .unknownParameter(name)
        }
    }

    /// The names ``set(_:to:)`` and ``value(of:)`` accept.
    public static let parameterNames = ["minAmplitude", "weakRunAmplitude", "continuationAmplitude", "minPeriodicity", "minWalkingPeriodicity", "walkingCheckSteps",
                                 "periodicityWindow", "periodicityTolerance", "weakRunIntervalRatio",
                                 "weakRunAmplitudeRatio", "maxIntervalRatio", "maxAmplitudeRatio",
                                 "alternatingIntervalRatio", "continuationMinPhase", "confirmationSteps",
                                 "confirmationSpan", "slowRunIntervalRatio", "slowRunAmplitudeRatio", "maxHold",
                                 "minStepInterval", "maxStepInterval", "maxGapInPeriods", "maxInputGap",
                                 "alternatingRuns", "fillMissedSteps"]

    /// The current value of a parameter in the units ``set(_:to:)`` takes (seconds for times, 0/1
    /// for booleans), or nil for an unknown name.
    public func value(of name: String) -> Double? {
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
