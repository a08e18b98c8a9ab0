/// Where one analyzer sits in an ``AnalysisPipeline``: returned by ``AnalysisPipeline/add(_:)``, it
/// reads that analyzer's typed result (``AnalysisPipeline/result(of:)``) and, for analyzers added
/// later, its per-delivery output (``AnalysisContext/output(of:)``).
///
/// A handle is an index: pipelines built by the same code in the same order share handles (a
/// replay at several latencies builds one pipeline per latency and reads them all with the same
/// handles). Using a handle with a pipeline built differently is a programming error (trapped).
public struct AnalyzerHandle<A: BatchAnalyzer>: Hashable, Sendable {
    /// The analyzer's position in its pipeline (0 = added first).
    public let index: Int

    init(index: Int) { self.index = index }
}
