/// The per-sample labels of a run of samples (ground truth such as `walking`, `sitting`; `nil`
/// where a sample is unlabelled), stored as runs of equal labels: recordings change label every
/// few seconds at most, so a delivery's labels are one or two runs, whatever its length.
///
/// Labels travel beside a delivery (``AnalysisContext/labels``), not inside ``MotionCore/SampleBatch``:
/// an unlabelled stream pays nothing for them.
public struct SampleLabels: Sendable, Equatable {
    /// A run of consecutive samples with the same label.
    public struct Run: Sendable, Equatable {
        /// Index of the run's first sample.
        public var start: Int
        /// The label, nil for unlabelled samples.
        public var label: String?

        /// Creates a run.
        public init(start: Int, label: String?) {
            self.start = start
            self.label = label
        }
    }

    /// The runs, in sample order; the first starts at 0, each ends where the next starts.
    public private(set) var runs: [Run] = []
    /// Number of samples labelled.
    public private(set) var count = 0

    /// No samples.
    public init() {}

    /// The labels of `labels.count` samples, in order.
    public init<S: Sequence>(_ labels: S) where S.Element == String? {
        for l in labels { append(l) }
    }

    /// Appends one sample's label.
    /// - Complexity: O(1) amortised (a string comparison with the last run's label).
    public mutating func append(_ label: String?) {
        if runs.isEmpty || runs[runs.count - 1].label != label { runs.append(Run(start: count, label: label)) }
        count += 1
    }

    /// The label of sample `index`.
    /// - Precondition: `0 <= index < count`.
    /// - Complexity: O(log runs).
    public func label(at index: Int) -> String? {
        precondition(index >= 0 && index < count, "label index out of range")
        var lo = 0, hi = runs.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if runs[mid].start <= index { lo = mid } else { hi = mid - 1 }
        }
        return runs[lo].label
    }

    /// Every sample's label, expanded.
    public var labels: [String?] {
        var out: [String?] = []
        out.reserveCapacity(count)
        for (i, r) in runs.enumerated() {
            let end = i + 1 < runs.count ? runs[i + 1].start : count
            out.append(contentsOf: repeatElement(r.label, count: end - r.start))
        }
        return out
    }

    /// Removes the labels of the first `n` samples and returns them (the rest are renumbered from 0).
    /// - Precondition: `0 <= n <= count`.
    /// - Complexity: O(runs).
    public mutating func removeFirst(_ n: Int) -> SampleLabels {
        precondition(n >= 0 && n <= count, "cannot remove \(n) of \(count) labels")
        var head = SampleLabels()
        guard n > 0 else { return head }
        // The last run that starts before sample n: it and those before it form the head.
        var split = 0
        while split + 1 < runs.count && runs[split + 1].start < n { split += 1 }
        head.runs = Array(runs[0...split])
        head.count = n
        let splitEnd = split + 1 < runs.count ? runs[split + 1].start : count
        var rest: [Run] = []
        rest.reserveCapacity(runs.count - split)
        if splitEnd > n { rest.append(Run(start: 0, label: runs[split].label)) }
        for r in runs[(split + 1)...] { rest.append(Run(start: r.start - n, label: r.label)) }
        runs = rest
        count -= n
        return head
    }
}
