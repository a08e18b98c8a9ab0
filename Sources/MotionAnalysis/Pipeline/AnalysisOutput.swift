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

extension AnalysisOutput {
    /// This output as a `T`, nil when it is another type: a comparison of type metadata on the
    /// opened existential instead of a runtime cast (``AnalysisContext/output(of:)`` reads one
    /// per delivery).
    func unwrapped<T: AnalysisOutput>(as _: T.Type) -> T? {
        guard Self.self == T.self else { return nil }
        return unsafeBitCast(self, to: T.self)
    }
}
