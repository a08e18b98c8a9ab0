import MotionCore

/// One replay of a sample stream through an ``AnalysisPipeline`` as a live device would deliver
/// it: optionally thinned to a lower sampling rate (``MotionCore/RateDecimator``), cut into
/// deliveries at a ``MotionCore/DeliveryPolicy`` (``MotionCore/DeliveryReplay``, which also accounts
/// the deliveries and each sample's delay), each delivery handed to the pipeline with its samples'
/// labels. A state machine fed chunks of samples in stream order: no I/O, no clock.
///
/// ``RecordingReplay`` drives sessions from a recording file; tests drive them from arrays.
public struct ReplaySession {
    /// The deliveries and their accounting (count, largest, sample delays).
    public private(set) var delivery: DeliveryReplay
    /// The pipeline, with every analyzer's state and result.
    public private(set) var pipeline: AnalysisPipeline
    /// The rate the stream is thinned to (Hz), or nil when every sample is delivered.
    public var decimatedRateHz: Double? { decimator?.rateHz }
    /// Whether pushes carry labels.
    public let isLabelled: Bool
    /// Samples pushed so far (before thinning).
    public private(set) var samplesPushed = 0

    private var decimator: RateDecimator?
    /// Labels of the samples inside the batcher, not yet delivered.
    private var pendingLabels = SampleLabels()
    /// With thinning: the push index of each sample inside the batcher (to name a failing sample).
    private var pendingSources: [Int] = []
    /// The refusal of an out-of-range timestamp, once made (the pipeline keeps its own failures).
    private var failure: AnalysisFailure?

    /// Creates a session.
    /// - Parameters:
    ///   - policy: how samples are grouped into deliveries.
    ///   - pipeline: the analyzers (nothing consumed yet).
    ///   - decimatingTo: a rate (Hz) to thin the stream to, as a sensor at that rate would have sampled it.
    ///   - labelled: whether every ``push(_:labels:)`` carries one label per sample.
    public init(policy: DeliveryPolicy, pipeline: AnalysisPipeline, decimatingTo rateHz: Double? = nil, labelled: Bool = false) {
        delivery = DeliveryReplay(policy: policy)
        self.pipeline = pipeline
        decimator = rateHz.map { RateDecimator(rateHz: $0) }
        isLabelled = labelled
    }

    /// The delivery policy.
    public var policy: DeliveryPolicy { delivery.policy }

    /// Pushes the next samples of the stream (time order), delivering every batch they complete.
    /// - Parameter labels: one label per sample when the session is labelled, else nil.
    /// - Throws: ``AnalysisFailure`` from the pipeline, its ``AnalysisFailure/sampleIndex`` counted
    ///   in pushed samples (before thinning); the session is then failed. A timestamp beyond
    ///   ±``MotionCore/Sample/timestampLimit`` is refused here (analyzer `replay`), before any
    ///   time arithmetic could overflow.
    /// - Complexity: O(samples) plus the analyzers' cost.
    public mutating func push(_ samples: [Sample], labels: [String?]? = nil) throws(AnalysisFailure) {
        precondition((labels != nil) == isLabelled, isLabelled ? "a labelled session needs labels" : "labels given to an unlabelled session")
        precondition(labels == nil || labels!.count == samples.count, "one label per sample")
        if let failure { throw failure }
        for i in samples.indices {
            let s = samples[i]
            if s.timestamp > Sample.timestampLimit || s.timestamp < -Sample.timestampLimit {
                failure = AnalysisFailure(analyzer: "replay", sampleIndex: samplesPushed,
                                          problem: "timestamp \(s.timestamp) ns is out of range (allowed \(InputLimits.timestampRangeText))")
                throw failure!
            }
            let source = samplesPushed
            samplesPushed += 1
            if decimator != nil {
                guard decimator!.keeps(s) else { continue }
                pendingSources.append(source)
            }
            if isLabelled { pendingLabels.append(labels![i]) }
            if let b = delivery.push(s) { try deliver(b) }
        }
    }

    /// Ends the stream: delivers the last partial batch and lets every analyzer finish.
    /// - Throws: ``AnalysisFailure`` as ``push(_:labels:)``.
    public mutating func finish() throws(AnalysisFailure) {
        if let failure { throw failure }
        if let b = delivery.finish() { try deliver(b) }
        try pipeline.finish()
    }

    private mutating func deliver(_ batch: SampleBatch) throws(AnalysisFailure) {
        let labels = isLabelled ? pendingLabels.removeFirst(batch.count) : nil
        let first = pipeline.samplesConsumed
        do {
            try pipeline.consume(batch, labels: labels)
        } catch {
            var failure = error
            if !pendingSources.isEmpty, let index = failure.sampleIndex, index - first < pendingSources.count {
                failure.sampleIndex = pendingSources[index - first]
            }
            throw failure
        }
        if decimator != nil { pendingSources.removeFirst(batch.count) }
    }
}
