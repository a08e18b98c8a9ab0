/// Why an ``AnalysisPipeline`` stopped: which analyzer refused the input, at which sample of the
/// stream when one sample was at fault, and the analyzer's own explanation.
public struct AnalysisFailure: Error, CustomStringConvertible, Equatable, Sendable {
    /// The analyzer's ``BatchAnalyzer/name``.
    public var analyzer: String
    /// Index in the stream (0-based, in the order the samples were given) of the offending sample,
    /// or nil when no single sample is at fault.
    public var sampleIndex: Int?
    /// The analyzer's description of the problem.
    public var problem: String

    /// Creates a failure record.
    public init(analyzer: String, sampleIndex: Int?, problem: String) {
        self.analyzer = analyzer
        self.sampleIndex = sampleIndex
        self.problem = problem
    }

    /// `analyzer: problem`.
    public var description: String { "\(analyzer): \(problem)" }
}
