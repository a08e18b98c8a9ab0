extension StepCounterConfiguration {
    /// One parameter reachable by name: where it is stored and in which unit it is given.
    private enum Parameter {
        /// A plain number.
        case number(WritableKeyPath<StepCounterConfiguration, Double>)
        /// A time stored in nanoseconds, given in seconds.
        case time(WritableKeyPath<StepCounterConfiguration, Int64>)
    }

    /// Every parameter by name, in the order ``parameterNames`` lists them: the tuned ones, then
    /// the fixed ones.
    private static var parameters: [(name: String, parameter: Parameter)] {
        [("minAmplitude", .number(\.minAmplitude)), ("minSwing", .number(\.minSwing)), ("minPeriodicity", .number(\.minPeriodicity)),
         ("maxIntervalRatio", .number(\.maxIntervalRatio)), ("weakRunIntervalRatio", .number(\.weakRunIntervalRatio)),
         ("maxAmplitudeRatio", .number(\.maxAmplitudeRatio)), ("slowRunIntervalRatio", .number(\.slowRunIntervalRatio)),
         ("alternatingIntervalRatio", .number(\.alternatingIntervalRatio)), ("continuationMinPhase", .number(\.continuationMinPhase)),
         ("minWalkingPeriodicity", .number(\.minWalkingPeriodicity)),
         ("weakStepFraction", .number(\.weakStepFraction)),
         ("minStepInterval", .time(\.minStepInterval)), ("maxStepInterval", .time(\.maxStepInterval)),
         ("maxHold", .time(\.maxHold)), ("periodicityWindow", .time(\.periodicityWindow))]
    }

    /// The names ``set(_:to:)`` and ``value(of:)`` accept.
    public static var parameterNames: [String] { parameters.map(\.name) }

    /// Sets the parameter `name` (as in ``parameterNames``) to `v`: times in seconds, other values
    /// as they are. For
    /// experiments (`motionbatch eval steps --param NAME=VALUE`).
    /// - Throws: ``StepCounterError/unknownParameter(_:)``, or
    ///   ``StepCounterError/invalidConfiguration(_:)`` when the value is not finite, beyond ±10⁹, or
    ///   makes the configuration invalid (nothing is changed then).
    public mutating func set(_ name: String, to v: Double) throws(StepCounterError) {
        guard let parameter = Self.parameters.first(where: { $0.name == name })?.parameter else { throw .unknownParameter(name) }
        // Beyond 10^9 (s: 31 years) a time no longer fits in Int64 nanoseconds.
        guard v.isFinite, v.magnitude <= 1e9 else { throw .invalidConfiguration("\(name) must be a finite number within ±1e9, got \(v)") }
        var c = self
        switch parameter {
        case .number(let k): c[keyPath: k] = v
        case .time(let k): c[keyPath: k] = Int64((v * 1e9).rounded())
        }
        try c.validate()
        self = c
    }

    /// The current value of a parameter in the units ``set(_:to:)`` takes (seconds for times), or
    /// nil for an unknown name.
    public func value(of name: String) -> Double? {
        switch Self.parameters.first(where: { $0.name == name })?.parameter {
        case .number(let k): return self[keyPath: k]
        case .time(let k): return Double(self[keyPath: k]) / 1e9
        case nil: return nil
        }
    }
}
