/// Per-step comparison of detected step times with ground-truth step times.
///
/// Algorithm (documented so that the figures can be reproduced):
/// 1. Candidate offsets are 0 and every difference `truth[j] - detected[i]` with magnitude at most
///    `maxOffset` (the detector and the foot switches may disagree by a constant delay).
/// 2. For each candidate offset, shifted detections are matched to truth greedily in time order
///    (two pointers): a pair within `tolerance` is matched (one-to-one), otherwise the earlier of
///    the two is skipped.
/// 3. The offset with the most matches wins (ties: the smallest |offset|).
/// Precision = matches / detected, recall = matches / truth.
public struct StepMatching: Sendable, Equatable {
    /// Number of one-to-one matches.
    public var matched: Int
    /// Number of detected steps.
    public var detected: Int
    /// Number of ground-truth steps.
    public var truth: Int
    /// The constant offset (ns) added to detections that maximised the matches.
    public var offset: Int64

    /// matched / detected (1 when nothing was detected and nothing was true).
    public var precision: Double { detected == 0 ? (truth == 0 ? 1 : 0) : Double(matched) / Double(detected) }
    /// matched / truth (1 when there is no truth).
    public var recall: Double { truth == 0 ? 1 : Double(matched) / Double(truth) }

    /// Matches sorted `detected` against sorted `truth` timestamps (ns).
    /// - Complexity: O(n · k · (n + m)) where k is the number of truth steps within `maxOffset` of a detection.
    public init(detected: [Int64], truth: [Int64], tolerance: Int64 = 250_000_000, maxOffset: Int64 = 2_000_000_000) {
        self.detected = detected.count
        self.truth = truth.count
        var offsets: Set<Int64> = [0]
        var lo = 0
        for d in detected {
            while lo < truth.count && truth[lo] < d - maxOffset { lo += 1 }
            var j = lo
            while j < truth.count && truth[j] <= d + maxOffset { offsets.insert(truth[j] - d); j += 1 }
        }
        var best = 0
        var bestOffset: Int64 = 0
        for off in offsets.sorted() {
            let m = Self.greedy(detected, truth, offset: off, tolerance: tolerance)
            if m > best || (m == best && abs(off) < abs(bestOffset)) { best = m; bestOffset = off }
        }
        matched = best
        offset = bestOffset
    }

    /// One-to-one greedy matching in time order with a fixed offset.
    static func greedy(_ det: [Int64], _ truth: [Int64], offset: Int64, tolerance: Int64) -> Int {
        var i = 0, j = 0, m = 0
        while i < det.count && j < truth.count {
            let d = det[i] + offset
            if abs(d - truth[j]) <= tolerance { m += 1; i += 1; j += 1 }
            else if d < truth[j] { i += 1 }
            else { j += 1 }
        }
        return m
    }
}
