import MotionAnalysis

/// The step-counter parameters a search may tune, each with its candidate values: a small,
/// bounded grid searched exhaustively (``StepCrossValidation``).
public struct StepSearchSpace: Sendable, Equatable {
    /// One tuned parameter.
    public struct Dimension: Sendable, Equatable {
        /// A name of ``MotionAnalysis/StepCounterConfiguration/parameterNames``.
        public var name: String
        /// Candidate values, in the units ``MotionAnalysis/StepCounterConfiguration/set(_:to:)`` takes.
        public var values: [Double]

        /// Creates a dimension.
        public init(name: String, values: [Double]) {
            self.name = name
            self.values = values
        }
    }

    /// The dimensions (the first varies slowest in ``points``).
    public var dimensions: [Dimension]

    /// Creates a space.
    /// - Precondition: every name is a parameter name and every dimension has a value.
    public init(_ dimensions: [Dimension]) {
        for d in dimensions {
            precondition(StepCounterConfiguration().value(of: d.name) != nil, "unknown parameter \(d.name)")
            precondition(!d.values.isEmpty, "\(d.name) has no candidate values")
        }
        self.dimensions = dimensions
    }

    /// Every tuned parameter of the counter (``MotionAnalysis/StepCounterConfiguration``, "Tuned"),
    /// each with values spanning the range its sweep showed to matter (docs/step-counter.md,
    /// "Parameters"), the defaults among them. `minPeriodicity` is not searched: it stays at
    /// the value it had before any tuning (0.85, issue 4). Trained on two subjects, the search
    /// moved it to 0.9 for a gain on another set's figure it could not trade against the third
    /// subject's bouts (docs/step-counter.md, "What generalises").
    public static let standard = StepSearchSpace([
        Dimension(name: "maxIntervalRatio", values: [1.6, 1.8, 2.0]),
        Dimension(name: "minSwing", values: [0.8, 1.0]),
        Dimension(name: "weakStepFraction", values: [0, 0.2, 0.3]),
        Dimension(name: "continuationMinPhase", values: [0.6, 0.7]),
        Dimension(name: "minWalkingPeriodicity", values: [0, 0.3]),
    ])

    /// Number of grid points.
    public var gridSize: Int { dimensions.map(\.values.count).reduce(1, *) }

    /// Every grid point (one value per dimension), the last dimension varying fastest.
    public var points: [[Double]] {
        dimensions.reduce([[]]) { partial, d in partial.flatMap { p in d.values.map { p + [$0] } } }
    }
}
