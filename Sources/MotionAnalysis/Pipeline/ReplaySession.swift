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
    /// With thinning: the label and push index of the open slot's first sample (the slot's mean
    /// carries them).
    private var slotLabel: String?
    private var slotSource = 0
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
    /// - Parameter events: the recording's event lines among these samples (``MotionCore/RecordingChunk/events``),
    ///   each placed by its ``MotionCore/RecordingEvent/sampleIndex`` counted in pushed samples (an
    ///   event at ``samplesPushed`` + `samples.count` comes after the last of them). At an
    ///   interruption (pause, lost device) the pending partial batch is delivered and the pipeline
    ///   is interrupted (``AnalysisPipeline/interrupt(at:)``), as the live capture did.
    public mutating func push(_ samples: [Sample], labels: [String?]? = nil, events: [RecordingEvent] = []) throws(AnalysisFailure) {
        precondition((labels != nil) == isLabelled, isLabelled ? "a labelled session needs labels" : "labels given to an unlabelled session")
        precondition(labels == nil || labels!.count == samples.count, "one label per sample")
        if let failure { throw failure }
        var nextEvent = 0
        for i in samples.indices {
            while nextEvent < events.count, events[nextEvent].sampleIndex <= samplesPushed {
                try apply(events[nextEvent])
                nextEvent += 1
            }
            let s = samples[i]
            if s.timestamp > Sample.timestampLimit || s.timestamp < -Sample.timestampLimit {
                failure = AnalysisFailure(analyzer: "replay", sampleIndex: samplesPushed,
                                          problem: "timestamp \(s.timestamp) ns is out of range (allowed \(InputLimits.timestampRangeText))")
                throw failure!
            }
            let source = samplesPushed
            samplesPushed += 1
            let label = isLabelled ? labels![i] : nil
            guard decimator != nil else {
                try emit(s, label: label)
                continue
            }
            let opened = !decimator!.hasPending
            if let mean = decimator!.push(s) {
                try emit(mean, label: slotLabel, source: slotSource)
            } else if !opened {
                continue
            }
            slotLabel = label
            slotSource = source
        }
        for e in events[nextEvent...] { try apply(e) }
    }

    /// Interruptions applied so far.
    public var interruptions: Int { pipeline.interruptions }

    /// An event of the recording: an interruption delivers what is pending, then interrupts the
    /// pipeline; a resumption needs nothing (the interruption restarted the analyzers).
    private mutating func apply(_ event: RecordingEvent) throws(AnalysisFailure) {
        guard event.isInterruption else { return }
        try flushDecimator()
        if let b = delivery.flush(at: event.time) { try deliver(b) }
        try pipeline.interrupt(at: event.time)
    }

    /// Ends the stream: delivers the last partial batch and lets every analyzer finish.
    /// - Throws: ``AnalysisFailure`` as ``push(_:labels:)``.
    public mutating func finish() throws(AnalysisFailure) {
        if let failure { throw failure }
        try flushDecimator()
        if let b = delivery.finish() { try deliver(b) }
        try pipeline.finish()
    }

    /// Hands one sample (as recorded, or a thinned slot's mean) to the batcher, delivering the
    /// batch it completes.
    private mutating func emit(_ sample: Sample, label: String?, source: Int? = nil) throws(AnalysisFailure) {
        if let source { pendingSources.append(source) }
        if isLabelled { pendingLabels.append(label) }
        if let b = delivery.push(sample) { try deliver(b) }
    }

    /// Closes the thinning's open slot (end of stream, interruption): its mean is emitted.
    private mutating func flushDecimator() throws(AnalysisFailure) {
        guard decimator != nil, let mean = decimator!.flush() else { return }
        try emit(mean, label: slotLabel, source: slotSource)
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
