import MotionCore

/// An analysis that consumes delivered batches during a replay: it reports the timestamps of
/// events (e.g. steps) it recognises in each batch, and a summary that must not depend on how
/// the stream was batched.
public protocol ReplayAnalyzer {
    /// A short name (`steps`, `stream`).
    var name: String { get }
    /// Consumes one delivered batch; returns the sample timestamps (ns) of events it found.
    /// - Throws: the analysis's own error for input it cannot use (the replay stops).
    mutating func consume(_ batch: SampleBatch) throws -> [Int64]
    /// Ends the stream; returns events still pending.
    mutating func finish() -> [Int64]
    /// The results as name → value text (compared across configurations).
    var summary: [(String, String)] { get }
}

/// ``StreamStatistics`` as a replay analysis: sample count, gaps and missing samples.
public struct StreamStatisticsAnalyzer: ReplayAnalyzer {
    private var stats = StreamStatistics()
    /// Creates the analyzer.
    public init() {}
    public var name: String { "stream" }
    public mutating func consume(_ batch: SampleBatch) -> [Int64] { stats.add(batch); return [] }
    public mutating func finish() -> [Int64] { stats.finish(); return [] }
    public var summary: [(String, String)] {
        [("samples", String(stats.sampleCount)), ("gaps", String(stats.gapCount)), ("missing_samples", String(stats.estimatedMissingSamples))]
    }
}

/// The outcome of replaying a recording at one delivery policy.
public struct ReplayResult: Sendable, Equatable {
    /// The sampling rate replayed (Hz): the requested rate, or nil for the recording's own.
    public var rateHz: Double?
    /// The batch latency replayed (s).
    public var latencyS: Double
    /// Deliveries (wake-ups) the replay made.
    public var deliveries: Int
    /// Samples delivered.
    public var samples: Int
    /// Worst delay from a sample's timestamp to its delivery (s).
    public var worstDelayS: Double
    /// Mean delay from a sample's timestamp to its delivery (s).
    public var meanDelayS: Double
    /// Analysis results, `analyzer.key` → value, in analyzer order.
    public var analysis: [String]
    /// Per event (e.g. step) in time order: delivery time − event time (s), i.e. how late the
    /// event became visible to the application.
    public var eventDelaysS: [Double]
    /// Per activity change: announcement delivery time − the change's start (s); nil while no
    /// activity classifier runs in the replay (`activity_visibility_s` is then null).
    public var activityDelaysS: [Double]? = nil

    /// Events found.
    public var eventCount: Int { eventDelaysS.count }
}

/// Replays samples at several batch latencies through ``DeliveryReplay`` and analysers.
public enum RecordingReplay {
    /// Replays `samples` at `latencyS` with fresh analysers from `makeAnalyzers`.
    /// - Throws: the first error an analyser throws.
    /// - Complexity: O(samples × analysers).
    public static func run(_ samples: [Sample], latencyS: Double, makeAnalyzers: () throws -> [any ReplayAnalyzer]) throws -> ReplayResult {
        var replay = DeliveryReplay(policy: .latency(seconds: latencyS))
        var analyzers = try makeAnalyzers()
        var delays: [Double] = []
        func consume(_ b: SampleBatch) throws {
            for i in analyzers.indices {
                for t in try analyzers[i].consume(b) { delays.append(Double(b.deliveredAt - t) / 1e9) }
            }
        }
        for s in samples {
            if let b = replay.push(s) { try consume(b) }
        }
        if let b = replay.finish() { try consume(b) }
        let end = samples.last?.timestamp ?? 0
        for i in analyzers.indices {
            for t in analyzers[i].finish() { delays.append(Double(max(end, t) - t) / 1e9) }
        }
        let analysis = analyzers.flatMap { a in a.summary.map { "\(a.name).\($0.0)=\($0.1)" } }
        return ReplayResult(rateHz: nil, latencyS: latencyS, deliveries: replay.deliveries, samples: replay.samples,
                            worstDelayS: replay.worstDelayS, meanDelayS: replay.meanDelayS,
                            analysis: analysis, eventDelaysS: delays)
    }

    /// Whether, for each replayed rate, every latency's analysis equals the others'.
    /// (Different rates see different samples, so they are compared only among themselves.)
    public static func analysesIdentical(_ results: [ReplayResult]) -> Bool {
        var byRate: [Double: [String]] = [:]
        for r in results {
            let key = r.rateHz ?? -1
            if let first = byRate[key] { if first != r.analysis { return false } } else { byRate[key] = r.analysis }
        }
        return true
    }

    /// The samples a sensor running at `rateHz` would have produced from `samples`: the first
    /// sample in each 1/rate slot of time from the first sample (slot = ⌊(t − t0) · rate⌋).
    /// Returns all samples when `rateHz` is at or above the recording's own mean rate.
    ///
    /// - Complexity: O(samples).
    public static func decimate(_ samples: [Sample], toRateHz rateHz: Double) -> [Sample] {
        guard let first = samples.first, let last = samples.last, samples.count > 1, rateHz > 0 else { return samples }
        let ownRate = Double(samples.count - 1) / (Double(last.timestamp - first.timestamp) / 1e9)
        if rateHz >= ownRate * 0.999 { return samples }
        var out: [Sample] = []
        out.reserveCapacity(Int(Double(samples.count) * rateHz / ownRate) + 1)
        var slot = Int64.min
        for s in samples {
            let k = Int64((Double(s.timestamp - first.timestamp) / 1e9 * rateHz).rounded(.down))
            if k != slot { out.append(s); slot = k }
        }
        return out
    }

    /// The recording's mean sampling rate (Hz), 0 for fewer than two samples.
    public static func meanRateHz(_ samples: [Sample]) -> Double {
        guard let first = samples.first, let last = samples.last, samples.count > 1, last.timestamp > first.timestamp else { return 0 }
        return Double(samples.count - 1) / (Double(last.timestamp - first.timestamp) / 1e9)
    }
}
