import MotionCore

/// One analysis of a sample stream (step counting, stream statistics, activity classification...),
/// fed the stream's deliveries in order by an ``AnalysisPipeline``.
///
/// An analyzer is a state machine: it does no I/O, reads no clock (time comes from the sample
/// timestamps and ``MotionCore/SampleBatch/deliveredAt``), and its ``result`` must be identical for
/// every split of the same stream into batches (the pipeline's tests check this for every analyzer).
///
/// Per delivery it returns an ``Output``: what this delivery produced (the steps it counted, a
/// decision it made final), which analyzers added later to the same pipeline read through
/// ``AnalysisContext/output(of:)``, and whose ``AnalysisOutput/eventTimes`` the pipeline uses to
/// measure how late each event became visible (``EventVisibility``).
///
/// Adding an analyzer: conform a type to this protocol, then `pipeline.add(MyAnalyzer())` returns the
/// ``AnalyzerHandle`` its result is read with (`pipeline.result(of: handle)`); an analyzer that
/// needs another's decisions takes that one's handle in its initialiser and is added after it.
public protocol BatchAnalyzer {
    /// What the analysis found: typed, `Equatable`, the same for every batching of the stream.
    associatedtype Result: AnalysisResult
    /// What one delivery produced, for the analyzers after this one and for visibility accounting.
    associatedtype Output: AnalysisOutput = NoOutput

    /// A short, stable name (`steps`, `stream`), used in messages and summaries.
    var name: String { get }

    /// Consumes one delivery (samples oldest first, never empty when it comes from ``MotionCore/Batcher``).
    /// - Parameter context: the delivery's labels, its position in the stream, and the outputs of the
    ///   analyzers added before this one for the same delivery.
    /// - Throws: the analysis's own error for input it cannot use; the pipeline then stops
    ///   (``AnalysisFailure``). An error conforming to ``SampleError`` names the sample.
    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) throws -> Output

    /// Ends the stream: decides what was still pending (held events are counted or dropped).
    /// - Parameter context: the end-of-stream outputs of the analyzers added before this one.
    mutating func finish(context: AnalysisContext) throws -> Output

    /// The result so far (final after ``finish(context:)``).
    var result: Result { get }
}

extension BatchAnalyzer where Output == NoOutput {
    /// Nothing is pending at the end of the stream.
    public mutating func finish(context: AnalysisContext) throws -> NoOutput { NoOutput() }
}
