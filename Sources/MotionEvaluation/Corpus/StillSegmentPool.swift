import MotionCore

/// Real still stretches (a wrist at rest, a desk, people sitting or standing, a phone lying still)
/// that ``BoutRecordingBuilder`` puts between walking bouts, handed out in turn.
///
/// Pieces are taken round robin over the segments, each segment continuing where it was last
/// cut and wrapping to its start, so consecutive pauses come from different people and devices.
public struct StillSegmentPool: Sendable {
    /// One still stretch of a recording.
    public struct Segment: Sendable {
        /// The recording it was cut from (for documentation and tests).
        public var source: String
        /// Its samples, time order.
        public var samples: [Sample]

        /// Creates a segment.
        public init(source: String, samples: [Sample]) {
            self.source = source
            self.samples = samples
        }

        /// First to last sample, ns.
        public var duration: Int64 { samples.isEmpty ? 0 : samples[samples.count - 1].timestamp - samples[0].timestamp }
    }

    /// The segments, in the order they are used.
    public let segments: [Segment]
    /// Per segment, the offset (ns from its first sample) where the next piece starts.
    private var cursors: [Int64]
    /// The segment the next piece is tried from.
    private var next = 0

    /// A pool of `segments` (those shorter than a second are left out).
    public init(_ segments: [Segment]) {
        self.segments = segments.filter { $0.duration >= 1_000_000_000 }
        cursors = Array(repeating: 0, count: self.segments.count)
    }

    /// The next piece of `duration` ns: from the next segment (round robin) at least that long,
    /// from where that segment was last cut (wrapping to its start when too little is left).
    /// Returns the samples covering the piece, with times from the segment's own clock.
    /// - Returns: nil when no segment is long enough.
    public mutating func take(duration: Int64) -> (source: String, samples: ArraySlice<Sample>)? {
        for attempt in 0..<segments.count {
            let i = (next + attempt) % segments.count
            let segment = segments[i]
            guard segment.duration >= duration else { continue }
            if segment.duration - cursors[i] < duration { cursors[i] = 0 }
            let t0 = segment.samples[0].timestamp + cursors[i]
            let samples = segment.samples
            // The samples from the last one at or before t0 to the first one at or after t0 + duration.
            let lo = Swift.max(samples.firstIndex(atOrAfter: t0 + 1) - 1, 0)
            let hi = Swift.min(samples.firstIndex(atOrAfter: t0 + duration), samples.count - 1)
            cursors[i] += duration
            next = (i + 1) % segments.count
            return (segment.source, samples[lo...hi])
        }
        return nil
    }

    /// The stretches of `samples` at least `minimum` ns long in which every window of `window` ns
    /// (aligned to the first sample) has a standard deviation of |a| of at most `maxDeviation`
    /// m/s²: the quiet parts of a recording that also holds some walking (the desk recording).
    /// - Complexity: O(samples).
    public static func quietStretches(_ samples: [Sample], window: Int64 = 1_000_000_000, maxDeviation: Double = 0.5,
                                      minimum: Int64 = 10_000_000_000) -> [[Sample]] {
        guard let first = samples.first else { return [] }
        var stretches: [[Sample]] = []
        var runStart = 0
        var i = 0
        func close(_ end: Int) {
            if end > runStart, samples[end - 1].timestamp - samples[runStart].timestamp >= minimum {
                stretches.append(Array(samples[runStart..<end]))
            }
        }
        while i < samples.count {
            let w = (samples[i].timestamp - first.timestamp) / window
            var j = i
            var sum = 0.0, squares = 0.0
            while j < samples.count && (samples[j].timestamp - first.timestamp) / window == w {
                let m = samples[j].accel.magnitude
                sum += m
                squares += m * m
                j += 1
            }
            let n = Double(j - i)
            let variance = Swift.max(0, squares / n - (sum / n) * (sum / n))
            if variance.squareRoot() > maxDeviation {
                close(i)
                runStart = j
            }
            i = j
        }
        close(samples.count)
        return stretches
    }

    /// The runs of `samples` whose label is one of `labels`, each trimmed by `trim` ns at both
    /// ends (where the annotated posture begins and ends), at least `minimum` ns long.
    /// - Complexity: O(samples).
    public static func labelledRuns(_ samples: [Sample], labels: [String?], keeping wanted: Set<String>,
                                    trim: Int64 = 1_000_000_000, minimum: Int64 = 5_000_000_000) -> [[Sample]] {
        precondition(labels.count == samples.count, "one label per sample")
        var runs: [[Sample]] = []
        var i = 0
        while i < samples.count {
            guard let label = labels[i], wanted.contains(label) else { i += 1; continue }
            var j = i
            while j < samples.count && labels[j] == label { j += 1 }
            let from = samples[i].timestamp + trim, to = samples[j - 1].timestamp - trim
            if to - from >= minimum {
                runs.append(samples[i..<j].filter { $0.timestamp >= from && $0.timestamp <= to })
            }
            i = j
        }
        return runs
    }
}
