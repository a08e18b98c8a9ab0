import MotionCore

extension StepCounterConfiguration {
    /// One parameter reachable by name: where it is stored, in which unit it is given, and the
    /// range its value must lie in (its ``ValueRule``, named in the error of a value outside it).
    private enum Parameter {
        /// A plain number within `rule`.
        case number(WritableKeyPath<StepCounterConfiguration, Double>, ValueRule)
        /// A time stored in nanoseconds, given in seconds: an ``InputLimits/duration``.
        case time(WritableKeyPath<StepCounterConfiguration, Int64>)

        var rule: ValueRule {
            switch self {
            case .number(_, let rule): return rule
            case .time: return InputLimits.duration
            }
        }
    }

    /// Amplitudes: accelerations above 0 (``InputLimits/acceleration``'s bound).
    private static let amplitude = ValueRule("amplitude", unit: "m/s^2", 0...InputLimits.sampleMagnitude, excludingLower: true)
    /// Ratios of the longest to the shortest interval or swing.
    private static let ratio = ValueRule("ratio", unit: "", 1...1_000_000)
    /// Correlations and shares.
    private static let fraction = ValueRule("fraction", unit: "", 0...1)
    /// A phase in step periods.
    private static let phase = ValueRule("fraction of the step period", unit: "", 0...1000)

    /// Every parameter by name, with its rule, in the order ``parameterNames`` lists them: the
    /// tuned ones, then the fixed ones. ``validate()`` then checks how the values fit together.
    private static var parameters: [(name: String, parameter: Parameter)] {
        [("minAmplitude", .number(\.minAmplitude, amplitude)), ("minSwing", .number(\.minSwing, amplitude)),
         ("minPeriodicity", .number(\.minPeriodicity, fraction)),
         ("maxIntervalRatio", .number(\.maxIntervalRatio, ratio)), ("weakRunIntervalRatio", .number(\.weakRunIntervalRatio, ratio)),
         ("maxAmplitudeRatio", .number(\.maxAmplitudeRatio, ratio)), ("slowRunIntervalRatio", .number(\.slowRunIntervalRatio, ratio)),
         ("alternatingIntervalRatio", .number(\.alternatingIntervalRatio, ratio)), ("continuationMinPhase", .number(\.continuationMinPhase, phase)),
         ("minWalkingPeriodicity", .number(\.minWalkingPeriodicity, fraction)), ("weakStepFraction", .number(\.weakStepFraction, fraction)),
         ("minStepInterval", .time(\.minStepInterval)), ("maxStepInterval", .time(\.maxStepInterval)),
         ("maxHold", .time(\.maxHold)), ("periodicityWindow", .time(\.periodicityWindow))]
    }

    /// The rule the value of parameter `name` must follow, or nil for an unknown name.
    public static func rule(forParameter name: String) -> ValueRule? {
        parameters.first { $0.name == name }?.parameter.rule
    }

    /// The names ``set(_:to:)`` and ``value(of:)`` accept.
    public static var parameterNames: [String] { parameters.map(\.name) }

    /// Sets the parameter `name` (as in ``parameterNames``) to `v`: times in seconds, other values
    /// as they are. For experiments (`motionbatch eval steps --param NAME=VALUE`).
    /// - Throws: ``StepCounterError/unknownParameter(_:)``, or
    ///   ``StepCounterError/invalidConfiguration(_:)`` when the value is outside the parameter's
    ///   rule (``rule(forParameter:)``, named in the message) or makes the configuration invalid
    ///   (nothing is changed then).
    public mutating func set(_ name: String, to v: Double) throws(StepCounterError) {
        guard let parameter = Self.parameters.first(where: { $0.name == name })?.parameter else { throw .unknownParameter(name) }
        // Checked before any conversion: beyond its rule a time no longer fits in Int64 nanoseconds.
        guard parameter.rule.contains(v) else { throw .invalidConfiguration(parameter.rule.problem(v.compactText)) }
        var c = self
        switch parameter {
        case .number(let k, _): c[keyPath: k] = v
        case .time(let k): c[keyPath: k] = Int64((v * 1e9).rounded())
        }
        try c.validate()
        self = c
    }

    /// The current value of a parameter in the units ``set(_:to:)`` takes (seconds for times), or
    /// nil for an unknown name.
    public func value(of name: String) -> Double? {
        switch Self.parameters.first(where: { $0.name == name })?.parameter {
        case .number(let k, _): return self[keyPath: k]
        case .time(let k): return Double(self[keyPath: k]) / 1e9
        case nil: return nil
        }
    }
}
