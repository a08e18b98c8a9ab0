import MotionAnalysis
import Foundation
import MotionCore

// Small analyzers with obvious results, for the pipeline's own tests.

/// Counts deliveries: a result that depends on the batching, to prove the check can fail.
struct DeliveryCounter: BatchAnalyzer {
    var result = Count(value: 0)
    var name: String { "deliveries" }
    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        result.value += 1
        return NoOutput()
    }
}

/// Finds nothing, whatever the input.
struct NothingFinder: BatchAnalyzer {
    var result = Count(value: 0)
    var name: String { "nothing" }
    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput { NoOutput() }
}

/// A count as an analysis result (empty when zero).
struct Count: AnalysisResult {
    var value: Int
    var isEmpty: Bool { value == 0 }
}

/// Times of the samples where the x acceleration crosses 0 upwards: events that span batch
/// boundaries (the previous sample may be in the previous delivery).
struct UpCrossings: BatchAnalyzer {
    struct Times: AnalysisResult, AnalysisOutput {
        var times: [Int64] = []
        var isEmpty: Bool { times.isEmpty }
        var eventTimes: [Int64] { times }
    }
    private var previous: Double?
    var result = Times()
    var name: String { "crossings" }

    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> Times {
        var found = Times()
        for s in batch.samples {
            if let p = previous, p < 0, s.accel.x >= 0 { found.times.append(s.timestamp) }
            previous = s.accel.x
        }
        result.times += found.times
        return found
    }

    mutating func finish(context: AnalysisContext) -> Times { Times() }
}

/// Reads the output of an ``UpCrossings`` added before it, delivery by delivery, and keeps what
/// it saw (as a step counter will read the activity classifier's decisions).
struct CrossingFollower: BatchAnalyzer {
    let upstream: AnalyzerHandle<UpCrossings>
    var result = UpCrossings.Times()
    /// Per delivery: (first sample index, crossings seen).
    var seen: [(Int, [Int64])] = []
    var name: String { "follower" }

    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        let times = context.output(of: upstream).times
        result.times += times
        seen.append((context.firstSampleIndex, times))
        return NoOutput()
    }
}

/// Keeps the labels it was given, as runs over the whole stream.
struct LabelRecorder: BatchAnalyzer {
    var result = Runs()
    var name: String { "labels" }
    struct Runs: AnalysisResult {
        var labels = SampleLabels()
        var isEmpty: Bool { labels.count == 0 }
    }

    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) -> NoOutput {
        for l in context.labels?.labels ?? Array(repeating: nil, count: batch.count) { result.labels.append(l) }
        return NoOutput()
    }
}

/// Refuses the sample at `timestamp`, naming it.
struct Refuser: BatchAnalyzer {
    struct Refusal: SampleError, CustomStringConvertible {
        var sampleIndexInBatch: Int?
        var description: String { "sample \(sampleIndexInBatch ?? -1) of the batch is refused" }
    }
    let timestamp: Int64
    var result = Count(value: 0)
    var name: String { "refuser" }

    mutating func consume(_ batch: SampleBatch, context: AnalysisContext) throws -> NoOutput {
        if let i = batch.samples.firstIndex(where: { $0.timestamp == timestamp }) { throw Refusal(sampleIndexInBatch: i) }
        result.value += batch.count
        return NoOutput()
    }
}

/// `count` samples every `periodNs` from `start`, x = sin(2π t / 1 s) (one up-crossing per second).
func sineSamples(count: Int, periodNs: Int64 = 10_000_000, start: Int64 = 0) -> [Sample] {
    (0..<count).map { i in
        let t = start + Int64(i) * periodNs
        return Sample(timestamp: t, accel: Vector3(sin(2 * Double.pi * Double(t) / 1e9 + 0.1), 0, 9.81))
    }
}

/// `samples` cut into batches of `size`, each delivered at its last sample.
func batches(_ samples: [Sample], size: Int) -> [SampleBatch] {
    stride(from: 0, to: samples.count, by: size).map { i in
        let part = Array(samples[i..<min(samples.count, i + size)])
        return SampleBatch(samples: part, deliveredAt: part[part.count - 1].timestamp)
    }
}
