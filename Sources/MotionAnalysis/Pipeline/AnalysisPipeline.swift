import MotionCore

/// The one analysis pipeline: an ordered fan-out of ``BatchAnalyzer``s, each fed every delivery
/// of a sample stream, whatever the stream's source (a replayed recording, a live capture).
///
/// Analyzers run in the order they were added; each sees the outputs that the ones before it
/// produced for the same delivery (``AnalysisContext/output(of:)``), so an analyzer can act on
/// another's decisions (the step counter on the activity classifier's) by being added after it.
/// Per analyzer the pipeline also records how late its events became visible (``EventVisibility``).
///
/// ```swift
/// var pipeline = AnalysisPipeline()
/// let steps = pipeline.add(try StepCountAnalyzer())
/// try pipeline.consume(batch)            // for every delivery, labels too when there are some
/// try pipeline.finish()
/// let summary = pipeline.result(of: steps)
/// ```
///
/// A value type: copying a pipeline copies every analyzer's state. No I/O, no clock.
/// After an analyzer throws, the pipeline stays failed: every later call rethrows that failure.
public struct AnalysisPipeline {
    private var analyzers: [any BatchAnalyzer] = []
    private var visibility: [EventVisibility] = []
    /// The outputs of the current delivery, by position: slot `i` is overwritten when analyzer `i`
    /// has run (a fixed-size array, so that a delivery allocates nothing here).
    private var outputs: [any AnalysisOutput] = []
    /// The analyzers' names, in order.
    public private(set) var names: [String] = []
    /// Samples consumed so far (over every delivery).
    public private(set) var samplesConsumed = 0
    /// Deliveries consumed so far.
    public private(set) var deliveries = 0
    /// The delivery instant (ns) of the last delivery, nil before the first.
    public private(set) var lastDeliveredAt: Int64?
    /// Whether ``finish()`` was called.
    public private(set) var isFinished = false
    /// The failure that stopped the pipeline, if one did.
    public private(set) var failure: AnalysisFailure?

    /// An empty pipeline.
    public init() {}

    /// Adds an analyzer after those already added.
    /// - Returns: the handle its result (and, for analyzers added later, its output) is read with.
    /// - Precondition: nothing has been consumed yet.
    @discardableResult
    public mutating func add<A: BatchAnalyzer>(_ analyzer: A) -> AnalyzerHandle<A> {
        precondition(deliveries == 0 && !isFinished, "analyzers are added before the first delivery")
        analyzers.append(analyzer)
        outputs.append(NoOutput())
        names.append(analyzer.name)
        visibility.append(EventVisibility())
        return AnalyzerHandle(index: analyzers.count - 1)
    }

    /// Feeds one delivery to every analyzer, in order.
    /// - Parameter labels: the delivery's per-sample labels, when the source has them.
    /// - Throws: ``AnalysisFailure`` when an analyzer refuses the delivery (the pipeline then stays
    ///   failed; the samples of the failed delivery do not count as consumed).
    /// - Complexity: the analyzers' own cost, plus O(analyzers) per delivery.
    public mutating func consume(_ batch: SampleBatch, labels: SampleLabels? = nil) throws(AnalysisFailure) {
        precondition(!isFinished, "consume after finish")
        precondition(labels == nil || labels!.count == batch.count, "one label per sample")
        if let failure { throw failure }
        let first = samplesConsumed
        for i in analyzers.indices {
            // The previous delivery's output is let go of first, so that an analyzer can reuse
            // the arrays it handed over then (their buffers are unique again).
            outputs[i] = NoOutput()
            let output: any AnalysisOutput
            do {
                // The context is built in the call so that it is released before `outputs` changes.
                output = try Self.consume(&analyzers[i], batch, AnalysisContext(labels: labels, firstSampleIndex: first, outputs: outputs, available: i))
            } catch {
                let index = (error as? any SampleError)?.sampleIndexInBatch.map { first + $0 }
                throw fail(AnalysisFailure(analyzer: names[i], sampleIndex: index, problem: "\(error)"))
            }
            collect(output, from: i, visibleAt: batch.deliveredAt)
        }
        samplesConsumed += batch.count
        deliveries += 1
        lastDeliveredAt = batch.deliveredAt
    }

    /// Interruptions of the stream so far (``interrupt(at:)``).
    public private(set) var interruptions = 0

    /// The stream is interrupted here (a pause, a lost device): every analyzer, in order, ends or
    /// restarts its windows instead of bridging the interval (``BatchAnalyzer/interrupt(at:context:)``).
    /// Events announced now are visible at the last delivery's instant: feed the samples held
    /// before the interruption first (a live capture delivers them before it stops reading).
    /// - Parameter time: when it happened (the capturing machine's monotonic clock, ns).
    /// - Throws: ``AnalysisFailure`` as ``consume(_:labels:)``.
    public mutating func interrupt(at time: Int64) throws(AnalysisFailure) {
        precondition(!isFinished, "interrupt after finish")
        if let failure { throw failure }
        for i in analyzers.indices {
            let output: any AnalysisOutput
            do {
                output = try Self.interrupt(&analyzers[i], at: time, AnalysisContext(labels: nil, firstSampleIndex: samplesConsumed, outputs: outputs, available: i))
            } catch {
                throw fail(AnalysisFailure(analyzer: names[i], sampleIndex: nil, problem: "\(error)"))
            }
            collect(output, from: i, visibleAt: lastDeliveredAt ?? 0)
        }
        interruptions += 1
    }

    /// Ends the stream: every analyzer decides what it still holds, in order. Events announced now
    /// are visible at the last delivery's instant.
    /// - Throws: ``AnalysisFailure`` as ``consume(_:labels:)``.
    public mutating func finish() throws(AnalysisFailure) {
        precondition(!isFinished, "finish called twice")
        if let failure { throw failure }
        isFinished = true
        for i in analyzers.indices {
            let output: any AnalysisOutput
            do {
                output = try Self.finish(&analyzers[i], AnalysisContext(labels: nil, firstSampleIndex: samplesConsumed, outputs: outputs, available: i))
            } catch {
                throw fail(AnalysisFailure(analyzer: names[i], sampleIndex: nil, problem: "\(error)"))
            }
            collect(output, from: i, visibleAt: lastDeliveredAt ?? 0)
        }
    }

    private mutating func fail(_ f: AnalysisFailure) -> AnalysisFailure {
        failure = f
        return f
    }

    private mutating func collect(_ output: any AnalysisOutput, from i: Int, visibleAt: Int64) {
        let events = output.eventTimes
        if !events.isEmpty { visibility[i].record(events, visibleAt: visibleAt) }
        outputs[i] = output
    }

    private static func consume<A: BatchAnalyzer>(_ analyzer: inout A, _ batch: SampleBatch, _ context: AnalysisContext) throws -> any AnalysisOutput {
        try analyzer.consume(batch, context: context)
    }

    private static func interrupt<A: BatchAnalyzer>(_ analyzer: inout A, at time: Int64, _ context: AnalysisContext) throws -> any AnalysisOutput {
        try analyzer.interrupt(at: time, context: context)
    }

    private static func finish<A: BatchAnalyzer>(_ analyzer: inout A, _ context: AnalysisContext) throws -> any AnalysisOutput {
        try analyzer.finish(context: context)
    }

    /// The typed result of the analyzer at `handle` (final after ``finish()``).
    public func result<A: BatchAnalyzer>(of handle: AnalyzerHandle<A>) -> A.Result {
        analyzer(handle).result
    }

    /// The analyzer at `handle`, as it is now (e.g. for a live figure mid-stream).
    public func analyzer<A: BatchAnalyzer>(_ handle: AnalyzerHandle<A>) -> A {
        precondition(handle.index < analyzers.count, "analyzer handle \(handle.index) does not belong to this pipeline")
        guard let a = analyzers[handle.index] as? A else {
            preconditionFailure("analyzer handle \(handle.index) does not belong to this pipeline (it holds \(type(of: analyzers[handle.index])))")
        }
        return a
    }

    /// How late the events of the analyzer at `handle` became visible.
    public func visibility<A: BatchAnalyzer>(of handle: AnalyzerHandle<A>) -> EventVisibility {
        precondition(handle.index < visibility.count, "analyzer handle \(handle.index) does not belong to this pipeline")
        return visibility[handle.index]
    }

    /// Every analyzer's result, in order.
    public var results: PipelineResults {
        PipelineResults(names: names, values: analyzers.map { Self.result(of: $0) })
    }

    private static func result<A: BatchAnalyzer>(of analyzer: A) -> any AnalysisResult { analyzer.result }
}
