/// A foot-switch step file with its two kinds of trigger defect repaired, each counted: an event
/// that splits one step interval into two (a **double trigger**: at a steady cadence no step
/// follows the previous one after a fraction of the interval and precedes the next one by the
/// rest), and an interval about twice the steps' around it (a **missed trigger**: one step
/// between them was not recorded; it is added at the interval's middle).
///
/// Only the file's own times decide (never a counter's output), with one rule per direction, so
/// the repair does not favour counting fewer steps or more. The Oxford walks' files hold both
/// (docs/step-counter.md, "Truth repairs"): uncorrected, a counter that finds every step of a
/// walk is scored several percent off on some of them.
///
/// "Around it" is the median of up to ``context`` intervals on each side, the judged ones
/// excluded; the first and last ``edge`` intervals of a file are never judged (the first and
/// last steps of a walk are irregular by nature, and their context is one-sided).
public struct FootSwitchTruth: Sendable, Equatable {
    /// What a repair changed.
    public struct Repair: Sendable, Equatable {
        /// Steps in the file as recorded.
        public var recordedCount: Int
        /// Events dropped as double triggers.
        public var doubleTriggers: Int
        /// Steps added for missed triggers.
        public var missedTriggers: Int

        /// Creates a repair record.
        public init(recordedCount: Int, doubleTriggers: Int, missedTriggers: Int) {
            self.recordedCount = recordedCount
            self.doubleTriggers = doubleTriggers
            self.missedTriggers = missedTriggers
        }

        /// Steps after the repair.
        public var repairedCount: Int { recordedCount - doubleTriggers + missedTriggers }

        /// Several files' repairs summed.
        public static func total(_ parts: [Repair]) -> Repair {
            Repair(recordedCount: parts.reduce(0) { $0 + $1.recordedCount },
                   doubleTriggers: parts.reduce(0) { $0 + $1.doubleTriggers },
                   missedTriggers: parts.reduce(0) { $0 + $1.missedTriggers })
        }
    }

    /// Intervals on each side that make the local step interval.
    public static let context = 6
    /// Intervals at each end of a file that are never judged.
    public static let edge = 2
    /// A double trigger's shorter part is below this fraction of the local interval...
    public static let splitFraction = 0.6
    /// ...and its two parts add up to the local interval within this fraction of it; a missed
    /// trigger's interval is twice the local one within this fraction of it.
    public static let tolerance = 0.3

    /// The repaired step times (ns, increasing).
    public var times: [Int64]
    /// The events dropped as double triggers (ns).
    public var doubleTriggers: [Int64]
    /// The steps added for missed triggers (ns).
    public var missedTriggers: [Int64]
    /// What changed.
    public var repair: Repair { Repair(recordedCount: times.count + doubleTriggers.count - missedTriggers.count,
                                       doubleTriggers: doubleTriggers.count, missedTriggers: missedTriggers.count) }

    /// Repairs `recorded` (step times in ns; sorted first if they are not).
    /// - Complexity: O(n × ``context``).
    public init(recorded: [Int64]) {
        let t = recorded.sorted()
        let n = t.count - 1  // intervals
        var dropped = [Bool](repeating: false, count: t.count)
        var added: [Int64] = []
        let edge = Self.edge, tolerance = Self.tolerance
        if n > 2 * edge {
            let interval = (0..<n).map { Double(t[$0 + 1] - t[$0]) }
            // The median of intervals [lo - context, lo) and (hi, hi + context].
            func local(_ lo: Int, _ hi: Int) -> Double {
                let around = interval[Swift.max(0, lo - Self.context)..<lo] + interval[(hi + 1)..<Swift.min(n, hi + 1 + Self.context)]
                return Array(around).median ?? 0
            }
            for i in edge..<(n - edge) {
                let l = local(i, i)
                if l > 0 && abs(interval[i] - 2 * l) <= tolerance * l { added.append(t[i] + (t[i + 1] - t[i]) / 2) }
            }
            // Event i lies between intervals i - 1 and i; two neighbours are never both dropped.
            var i = edge
            while i <= n - edge {
                let l = local(i - 1, i)
                let a = interval[i - 1], b = interval[i]
                if l > 0 && Swift.min(a, b) < Self.splitFraction * l && abs(a + b - l) <= tolerance * l {
                    dropped[i] = true
                    i += 2
                } else {
                    i += 1
                }
            }
        }
        doubleTriggers = zip(t, dropped).filter(\.1).map(\.0)
        missedTriggers = added
        times = (zip(t, dropped).filter { !$0.1 }.map(\.0) + added).sorted()
    }
}
