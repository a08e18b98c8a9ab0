import MotionCore

/// Finds the silences of the step counter that the signal moved through: stretches between two
/// consecutive counted steps, longer than ``InferredSteps/minSilenceSeconds``, in which every whole
/// second of sample time (seconds aligned to multiples of 1 s, so the same for every split into
/// batches) holds at least two samples and a standard deviation of |a| of at least
/// ``InferredSteps/minSilenceMotion``. A silence with a still second (a real pause), a second
/// without samples (a gap) or longer than ``InferredSteps/maxSilenceSeconds`` is not one.
///
/// Fed every sample (``add(_:)``) and every counted step in order (``counted(_:)``), after the
/// samples that made the counter emit it (however long after: the steps wait for the
/// classifier's vehicle decision, and a delivery may hold hours of samples). It keeps the runs of
/// consecutive moving seconds since the last counted step, as index ranges: memory grows with the
/// number of still-to-moving changes between two counted steps, not with their time apart.
struct SilenceMotionTracker: Sendable {
    /// The silences found, in time order.
    private(set) var silences: [InferredSteps.Silence] = []
    /// Runs of consecutive moving seconds (indices floor(t / 1 s), inclusive), oldest first; the
    /// first `head` are spent.
    private var runs: [(first: Int64, last: Int64)] = []
    private var head = 0
    private var binIndex = Int64.min
    private var sum = 0.0, sumSquares = 0.0, n = 0
    private var lastStep = Int64.min
    private static let second: Int64 = 1_000_000_000

    /// Adds one sample (time order).
    @inline(__always)
    mutating func add(_ s: Sample) {
        let k = StepCounter.floorDiv(s.timestamp, Self.second)
        if k != binIndex { closeBin(); binIndex = k }
        let m = s.accel.magnitude
        sum += m
        sumSquares += m * m
        n += 1
    }

    /// Closes the second being filled (at an interruption or the end of the stream).
    mutating func closeBin() {
        defer { sum = 0; sumSquares = 0; n = 0 }
        guard binIndex != Int64.min, n > 0 else { return }
        var moving = false
        if n >= 2 {
            let mean = sum / Double(n)
            let variance = Swift.max(0, sumSquares / Double(n) - mean * mean)
            moving = variance.squareRoot() >= InferredSteps.minSilenceMotion
        }
        guard moving else { return }
        if head < runs.count, runs[runs.count - 1].last == binIndex - 1 {
            runs[runs.count - 1].last = binIndex
        } else {
            runs.append((binIndex, binIndex))
        }
    }

    /// A step the counter counted at `t` (ns; increasing): the stretch since the previous one is
    /// judged.
    mutating func counted(_ t: Int64) {
        defer { lastStep = t }
        guard lastStep != Int64.min, Double(t - lastStep) > InferredSteps.minSilenceSeconds * 1e9,
              Double(t - lastStep) <= InferredSteps.maxSilenceSeconds * 1e9 else { drop(before: t); return }
        // The whole seconds inside (lastStep, t): [first, last]; all in one run of moving ones.
        let first = StepCounter.floorDiv(lastStep - 1, Self.second) + 1
        let last = StepCounter.floorDiv(t, Self.second) - 1
        if last >= first, runs[head...].contains(where: { $0.first <= first && $0.last >= last }) {
            silences.append(InferredSteps.Silence(start: lastStep, end: t))
        }
        drop(before: t)
    }

    /// Forgets the runs that end before the first whole second after `t`.
    private mutating func drop(before t: Int64) {
        let next = StepCounter.floorDiv(t - 1, Self.second) + 1
        while head < runs.count && runs[head].last < next { head += 1 }
        if head == runs.count {
            runs.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 >= runs.count {
            runs.removeFirst(head)
            head = 0
        }
    }
}
