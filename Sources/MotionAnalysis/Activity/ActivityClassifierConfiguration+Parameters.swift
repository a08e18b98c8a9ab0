extension ActivityClassifierConfiguration {
    /// The tunable scalar parameters by name: the per-window rule thresholds and the hysteresis
    /// scalars (the evidence table is set whole in code). What `--activity-param` and the
    /// cross-validation in `eval activity` address.
    static var parameters: [(name: String, path: WritableKeyPath<ActivityClassifierConfiguration, Double>)] {
        [
            ("stillMotion", \.stillMotion),
            ("stillRotation", \.stillRotation),
            ("restMotion", \.restMotion),
            ("restVibration", \.restVibration),
            ("vehicleVibration", \.vehicleVibration),
            ("gaitPeriodicity", \.gaitPeriodicity),
            ("shortGaitVertical", \.shortGaitVertical),
            ("gaitRotation", \.gaitRotation),
            ("walkingMinimum", \.walkingMinimum),
            ("runningAmplitude", \.runningAmplitude),
            ("vehicleFloor", \.vehicleFloor),
            ("vehicleMotion", \.vehicleMotion),
            ("vehicleTilt", \.vehicleTilt),
            ("cyclingFloor", \.cyclingFloor),
            ("cyclingMotion", \.cyclingMotion),
            ("walkingEntrySeconds", \.walkingEntrySeconds),
            ("evidenceDecay", \.evidenceDecay),
            ("maxBackdateSeconds", \.maxBackdateSeconds),
            ("boardingSeconds", \.boardingSeconds),
            ("gaitLostSeconds", \.gaitLostSeconds),
        ]
    }

    /// Every parameter name, in table order.
    public static var parameterNames: [String] { parameters.map(\.name) }

    /// The value of parameter `name`, nil when unknown.
    public func value(of name: String) -> Double? {
        Self.parameters.first { $0.name == name }.map { self[keyPath: $0.path] }
    }

    /// Sets parameter `name` and validates the result.
    /// - Throws: ``ActivityClassifierError/unknownParameter(_:)``, or
    ///   ``ActivityClassifierError/invalidConfiguration(_:)`` (the configuration is then unchanged).
    public mutating func set(_ name: String, to value: Double) throws(ActivityClassifierError) {
        guard let p = Self.parameters.first(where: { $0.name == name }) else { throw .unknownParameter(name) }
        var c = self
        c[keyPath: p.path] = value
        try c.validate()
        self = c
    }
}
