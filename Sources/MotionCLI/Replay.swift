#if canImport(Glibc)
import Glibc
#endif
import MotionAnalysis
import MotionCore
import WakeCost
import MotionSystem

/// Feeds a recording through the analysis exactly as a live device would deliver it: the file is
/// streamed, cut into deliveries by WakeCost's ``DeliveryReplay`` (MotionCore's `Batcher` plus the
/// delivery accounting `motionbatch wakes` uses), and every delivery is handed to the analyses.
struct Replay {
    /// What a replay found.
    struct Result {
        var path: String
        var header: RecordingHeader
        var policy: DeliveryPolicy
        var statistics: StreamStatistics
        var warnings: [RecordingWarning]
        /// Timestamps (ns) of the counted steps.
        var steps: [Int64]
        /// For each step, how long after it happened it became visible: the delivery instant of
        /// the batch that confirmed it minus its timestamp (ns).
        var stepVisibilityDelays: [Int64]
        /// For each activity change, how long after its start its announcement was delivered (ns);
        /// nil while no activity classifier runs (`activity_visibility_s` is then null).
        var activityVisibilityDelays: [Int64]? = nil
        /// Worst and mean delay from a sample's timestamp to its delivery (s).
        var worstSampleDelayS: Double
        var meanSampleDelayS: Double
    }

    /// Replays `path` with `policy`, calling `progress(bytesRead, fileSize)` after each chunk.
    /// - Throws: the reader's ``RecordingError`` / ``SystemError``.
    /// - Complexity: O(file size) time, memory bounded by one chunk plus one batch.
    static func run(path: String, policy: DeliveryPolicy, progress: (Int, Int) -> Void = { _, _ in }) throws -> Result {
        let reader = try RecordingReader(path: path)
        let size = fileSize(path)
        var delivery = DeliveryReplay(policy: policy)
        var stats = StreamStatistics(declaredRateHz: reader.header.declaredRate)
        var counter = try StepCounter()
        var steps: [Int64] = []
        var delays: [Int64] = []
        func deliver(_ batch: SampleBatch) throws {
            stats.add(batch)
            let before = steps.count
            try counter.process(batch, into: &steps)
            for t in steps[before...] { delays.append(batch.deliveredAt - t) }
        }
        var samples: [Sample] = []
        var labels: [String?] = []
        samples.reserveCapacity(4096)
        while true {
            samples.removeAll(keepingCapacity: true)
            labels.removeAll(keepingCapacity: true)
            let n = try reader.read(into: &samples, labels: &labels, maxSamples: 4096)
            if n == 0 { break }
            for s in samples {
                if let batch = delivery.push(s) { try deliver(batch) }
            }
            progress(reader.bytesRead, size)
        }
        if let batch = delivery.finish() { try deliver(batch) }
        stats.finish()
        return Result(path: path, header: reader.header, policy: policy, statistics: stats, warnings: reader.warnings, steps: steps,
                      stepVisibilityDelays: delays, worstSampleDelayS: delivery.worstDelayS, meanSampleDelayS: delivery.meanDelayS)
    }

    /// The file's size in bytes (for progress), 0 when unknown. Wraps `stat(2)`.
    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }
}
