/// What an analysis needs from the stream it is fed: the lowest sampling rate at which it still
/// meets its accuracy targets, and why. The analyses own the values (MotionAnalysis's
/// `AnalysisRequirement.stepCounter`, `.activityClassifier`, `.all`); reports such as
/// `motionbatch wakes` read them to recommend a rate, so the figure is written in one place.
public struct AnalysisRequirement: Hashable, Sendable {
    /// Short name used in reports and JSON (`step-counter`).
    public var analysis: String
    /// Lowest sampling rate (Hz) at which the analysis meets its targets.
    public var minimumRateHz: Double
    /// Where the figure comes from (a measurement command, a design requirement), in words.
    public var basis: String

    /// Creates a requirement.
    public init(analysis: String, minimumRateHz: Double, basis: String) {
        self.analysis = analysis
        self.minimumRateHz = minimumRateHz
        self.basis = basis
    }
}
