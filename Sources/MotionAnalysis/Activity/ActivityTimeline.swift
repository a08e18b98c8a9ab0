/// What the activity classifier found over a stream: contiguous segments from the first to the
/// last sample, and the time spent in each class. Identical for every split of the stream into
/// batches.
public struct ActivityTimeline: Sendable, Equatable {
    /// The segments, in time order; each starts where the previous one ends.
    public var segments: [ActivitySegment]

    /// Creates a timeline.
    public init(segments: [ActivitySegment]) { self.segments = segments }

    /// Seconds per class, every class present (zeros included), in ``ActivityClass/allCases`` order.
    public var secondsPerClass: [(ActivityClass, Double)] {
        var t = [Double](repeating: 0, count: ActivityClass.allCases.count)
        for s in segments { t[s.label.index] += s.durationSeconds }
        return ActivityClass.allCases.map { ($0, t[$0.index]) }
    }

    /// Seconds spent in `label`.
    public func seconds(in label: ActivityClass) -> Double {
        segments.reduce(0) { $0 + ($1.label == label ? $1.durationSeconds : 0) }
    }

    /// Number of changes of label (segments − 1, or 0).
    public var changes: Int { max(0, segments.count - 1) }

    /// The label at sample time `t` (ns): the segment containing it (a boundary belongs to the
    /// later segment), nil outside the timeline.
    /// - Complexity: O(log segments).
    public func label(at t: Int64) -> ActivityClass? {
        guard let first = segments.first, let last = segments.last, t >= first.start, t <= last.end else { return nil }
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= t { lo = mid } else { hi = mid - 1 }
        }
        return segments[lo].label
    }

    /// The segment's label weighted by time over `[from, to)` (ns): seconds per class.
    public func seconds(from: Int64, to: Int64) -> [Double] {
        var out = [Double](repeating: 0, count: ActivityClass.allCases.count)
        for s in segments where s.end > from && s.start < to {
            out[s.label.index] += Double(min(s.end, to) - max(s.start, from)) / 1e9
        }
        return out
    }
}
