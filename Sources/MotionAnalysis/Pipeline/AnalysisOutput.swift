/// A ``BatchAnalyzer/Output``: what one delivery produced.
public protocol AnalysisOutput: Sendable {
    /// The sample times (ns) of the events this output announces (counted steps, activity changes),
    /// oldest first. The pipeline records, for each, how long after it its delivery made it
    /// visible. Empty by default.
    var eventTimes: [Int64] { get }
}

extension AnalysisOutput {
    /// No events.
    public var eventTimes: [Int64] { [] }
}
