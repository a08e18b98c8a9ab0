/// The smoothing state machine over the windows' evidence: per class, seconds of evidence
/// accumulate (each window favouring a class adds its hop times its membership, so a clear
/// window counts fully and a doubtful one half; leaky: other windows take
/// ``ActivityClassifierConfiguration/evidenceDecay`` away, times 1 − their membership of the
/// class: a window that still shows it strongly takes little; `unknown`, a remainder, always
/// the whole decay; a pedalling-like window takes from walking and running only as far as the
/// gyroscope shows no limb swing, ``ActivityEvidence/limbSwing``, which walking and pedalling share),
/// and the current class changes to another once that one's evidence reaches the table
/// ``ActivityClassifierConfiguration/enterSeconds`` for this pair and the current class has been
/// held its minimum time. The change is announced at the deciding window's end; the segment it
/// opens is back-dated to the centre of the first window of the evidence run (`still`: to that
/// window's start, since a window is calm only when all of it is; at most
/// ``ActivityClassifierConfiguration/maxBackdateSeconds`` before the announcement). Segments are
/// built as it goes, with their mean confidence. No I/O, no clock: times are window times.
struct ActivityHysteresis: Sendable {
    /// A segment with the sums its mean confidence comes from.
    struct Built: Sendable, Equatable {
        var segment: ActivitySegment
        var confidenceSum: Double
        var windows: Int

        var finished: ActivitySegment {
            var s = segment
            s.confidence = windows > 0 ? confidenceSum / Double(windows) : 0
            return s
        }
    }

    /// One recent window: its centre and each class's confidence (for back-dating).
    private struct Window: Sendable, Equatable {
        var center: Int64
        var confidence: SIMD8<Double>
    }

    let configuration: ActivityClassifierConfiguration
    private let hop: Double
    private let maxBackdate: Int64
    /// Closed segments, in time order (two neighbours never share a label).
    private(set) var closed: [Built] = []
    /// The open segment (its `end` is updated as time goes on); nil before the first sample.
    private(set) var open: Built?
    private var evidence = [Double](repeating: 0, count: 6)
    private var runStart = [Int64](repeating: 0, count: 6)
    /// The end of the last window that showed gait plus the boarding time (ns): no vehicle
    /// segment begins before it.
    private var vehicleNotBefore = Int64.min
    private let boarding: Int64
    /// The end of the last window that favoured gait (ns), and the centre of the first window
    /// after it that did not (nil while gait goes on).
    private var lastGaitEnd = Int64.min
    private var gaitEndedAt: Int64?
    private let gaitLost: Int64
    /// Windows not older than the back-dating limit, oldest first.
    private var recent: [Window] = []
    private var recentHead = 0

    init(configuration: ActivityClassifierConfiguration) {
        self.configuration = configuration
        hop = ActivityClassifierConfiguration.hopSeconds
        maxBackdate = Int64(configuration.maxBackdateSeconds * 1e9)
        boarding = Int64(configuration.boardingSeconds * 1e9)
        gaitLost = Int64(configuration.gaitLostSeconds * 1e9)
    }

    /// The current class (after the end of the stream, the last one), nil before the first sample.
    var current: ActivityClass? { open?.segment.label ?? closed.last?.segment.label }

    /// Starts (or, after a gap, restarts) the analysis at sample time `t`: an open `unknown`
    /// segment; evidence and recent windows are forgotten. A previous open segment must have
    /// been closed with ``close(at:)``.
    mutating func start(at t: Int64) {
        precondition(open == nil, "close the open segment before starting again")
        open = Built(segment: ActivitySegment(start: t, end: t, label: .unknown, confidence: 0, announced: t), confidenceSum: 0, windows: 0)
        resetEvidence()
        vehicleNotBefore = Int64.min
        lastGaitEnd = Int64.min
        gaitEndedAt = nil
        recent.removeAll(keepingCapacity: true)
        recentHead = 0
    }

    /// Extends the open segment to `t` (the latest sample time).
    mutating func extend(to t: Int64) {
        if open != nil && t > open!.segment.end { open!.segment.end = t }
    }

    /// Closes the open segment at `t` (a gap starts, or the stream ends).
    mutating func close(at t: Int64) {
        guard var o = open else { return }
        o.segment.end = Swift.max(o.segment.end, t)
        append(o)
        open = nil
    }

    /// Appends a closed segment (a gap's `unknown`), merging it into the previous one when the
    /// label is the same; an empty segment is dropped unless it is the only one.
    mutating func append(_ b: Built) {
        if var last = closed.last, last.segment.label == b.segment.label {
            last.segment.end = Swift.max(last.segment.end, b.segment.end)
            last.confidenceSum += b.confidenceSum
            last.windows += b.windows
            closed[closed.count - 1] = last
        } else if b.segment.end > b.segment.start || closed.isEmpty {
            closed.append(b)
        }
    }

    /// One window's evidence: `center` and `end` are its centre and end (ns).
    /// - Returns: the back-dated start of the change it decided (the event time), or nil.
    mutating func observe(center: Int64, end: Int64, _ e: ActivityEvidence) -> Int64? {
        guard var o = open else { preconditionFailure("observe before start") }
        let conf = e.confidences
        recent.append(Window(center: center, confidence: conf))
        while recentHead < recent.count && recent[recentHead].center < end - maxBackdate - 1_000_000_000 { recentHead += 1 }
        if recentHead > 64 && recentHead * 2 > recent.count { recent.removeFirst(recentHead); recentHead = 0 }
        let cur = o.segment.label
        o.confidenceSum += conf[cur.index]
        o.windows += 1
        let favoured = e.favoured
        for k in 0..<6 where k != cur.index {
            if k == favoured.index {
                // A run begins at its first window's centre; a still run at that window's start
                // (2 × centre − end): a window is calm only when all of it is, and the window before
                // it was not, so the calm began within a hop of its start.
                if evidence[k] == 0 { runStart[k] = k == ActivityClass.still.index ? 2 * center - end : center }
                evidence[k] += hop * e.memberships[k]
            } else {
                var against = k == ActivityClass.unknown.index ? 1 : 1 - e.memberships[k]
                if favoured == .cycling && (k == ActivityClass.walking.index || k == ActivityClass.running.index) {
                    against *= 1 - e.limbSwing
                }
                evidence[k] = Swift.max(0, evidence[k] - configuration.evidenceDecay * hop * against)
            }
        }
        // Gait rules out a vehicle and pedalling: a walking or running window clears their
        // pending evidence at once, and no vehicle segment begins before its end plus the
        // boarding time (so steps just after a walk are not held for a vehicle run that cannot
        // claim them).
        if favoured == .walking || favoured == .running {
            evidence[ActivityClass.vehicle.index] = 0
            evidence[ActivityClass.cycling.index] = 0
            vehicleNotBefore = end + boarding
            lastGaitEnd = end
            gaitEndedAt = nil
        } else if gaitEndedAt == nil {
            gaitEndedAt = center
        }
        let held = Double(end - o.segment.start) / 1e9
        guard held >= configuration.minimumHoldSeconds[cur.index] else {
            open = o
            return nil
        }
        let k = favoured.index
        if k != cur.index, evidence[k] >= configuration.enterSeconds[cur.index][k] - 1e-9 {
            let back = Swift.max(runStart[k], end - maxBackdate, o.segment.start, favoured == .vehicle ? vehicleNotBefore : Int64.min)
            return change(o, to: favoured, back: back, end: end)
        }
        // Walking or running without a window of gait for `gaitLostSeconds`, and no other class
        // with its evidence: the gait has ended; what follows is `unknown` until a class shows,
        // from the centre of the first window without gait.
        if cur == .walking || cur == .running, let ended = gaitEndedAt, lastGaitEnd != Int64.min, end - lastGaitEnd >= gaitLost {
            return change(o, to: .unknown, back: Swift.max(ended, end - maxBackdate, o.segment.start), end: end)
        }
        open = o
        return nil
    }

    /// Changes the open segment `o` (its evidence of the deciding window added) to `favoured`
    /// from `back` on, decided by the window ending at `end`.
    /// - Returns: `back`, the change's event time.
    private mutating func change(_ o: Built, to favoured: ActivityClass, back: Int64, end: Int64) -> Int64 {
        var o = o
        let k = favoured.index, cur = o.segment.label
        // The windows centred at or after the change move to the new segment.
        var moved = 0.0, movedOld = 0.0, count = 0
        for w in recent[recentHead...] where w.center >= back {
            moved += w.confidence[k]
            movedOld += w.confidence[cur.index]
            count += 1
        }
        o.confidenceSum -= movedOld
        o.windows -= count
        var next = Built(segment: ActivitySegment(start: back, end: Swift.max(end, o.segment.end), label: favoured, confidence: 0, announced: end),
                         confidenceSum: moved, windows: count)
        if back > o.segment.start {
            o.segment.end = back
            append(o)
        } else if var last = closed.last, last.segment.label == favoured {
            // The whole open segment changes label, like the one before it: they are one segment.
            closed.removeLast()
            last.segment.end = next.segment.end
            last.confidenceSum += next.confidenceSum + o.confidenceSum
            last.windows += next.windows + o.windows
            next = last
        } else {
            next.confidenceSum += o.confidenceSum
            next.windows += o.windows
        }
        open = next
        resetEvidence()
        return back
    }

    /// The earliest time whose vehicle decision (in a vehicle or not) may still change: the
    /// back-dated start of a pending evidence run that would change it, else where such a run
    /// could begin: at the centre of the next window (`nextWindowCenter`) when in a vehicle, and
    /// out of one not before the boarding time after the last gait.
    func vehicleUndecidedFrom(nextWindowCenter: Int64, now: Int64) -> Int64 {
        guard let o = open else { return nextWindowCenter }
        let inVehicle = o.segment.label == .vehicle
        var t = inVehicle ? nextWindowCenter : Swift.max(nextWindowCenter, vehicleNotBefore)
        for k in 0..<6 where k != o.segment.label.index && evidence[k] > 0 && (k == ActivityClass.vehicle.index) != inVehicle {
            t = Swift.min(t, Swift.max(runStart[k], now - maxBackdate, o.segment.start, k == ActivityClass.vehicle.index ? vehicleNotBefore : Int64.min))
        }
        return t
    }

    private mutating func resetEvidence() {
        for k in 0..<6 { evidence[k] = 0 }
    }

    /// Every segment so far, the open one last, with its mean confidence.
    var segments: [ActivitySegment] {
        closed.map(\.finished) + (open.map { [$0.finished] } ?? [])
    }

    /// The last segment's confidence (`segments.last?.confidence`) without building the list.
    /// - Complexity: O(1).
    var currentConfidence: Double? { (open ?? closed.last)?.finished.confidence }
}
