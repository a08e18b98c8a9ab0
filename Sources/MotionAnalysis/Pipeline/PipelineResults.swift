/// Every analyzer's result of one pipeline, in the order the analyzers were added: what a replay
/// at one delivery policy found. Two replays of the same stream must have equal results whatever
/// their batching (``AnalysisPipeline`` is tested for that with every analyzer).
public struct PipelineResults: Equatable, Sendable {
    /// The analyzers' names.
    public let names: [String]
    /// The analyzers' results, by position (read typed ones with ``AnalysisPipeline/result(of:)``).
    public let values: [any AnalysisResult]

    /// Whether every analyzer found nothing.
    public var isEmpty: Bool { values.allSatisfy(\.isEmpty) }

    /// Same analyzers, and each result equal to the other's.
    public static func == (a: PipelineResults, b: PipelineResults) -> Bool {
        a.names == b.names && a.values.count == b.values.count && zip(a.values, b.values).allSatisfy { equal($0, $1) }
    }

    private static func equal(_ a: any AnalysisResult, _ b: any AnalysisResult) -> Bool {
        func compare<T: AnalysisResult>(_ a: T) -> Bool { (b as? T) == a }
        return compare(a)
    }
}
