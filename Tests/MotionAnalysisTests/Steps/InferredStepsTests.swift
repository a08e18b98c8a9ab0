@testable import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// Steps inferred in the counter's silences during gait: only in a moving silence inside one gait
/// run, at most one per gait period, never without a period, the same for every batching.
struct InferredStepsTests {
    let s: Int64 = 1_000_000_000

    /// Steps every `period` ns from `from` to `to` (inclusive of `from`).
    func steps(_ from: Int64, _ to: Int64, period: Int64) -> [Int64] { Array(stride(from: from, through: to, by: Int(period))) }

    func walking(_ from: Int64, _ to: Int64) -> ActivitySegment {
        ActivitySegment(start: from, end: to, label: .walking, confidence: 90, announced: from)
    }

    /// A walk at 0.5 s steps from 0 to 20 s with a silence from 10 s to 15 s.
    var walk: [Int64] { steps(0, 10 * s, period: s / 2) + steps(15 * s, 20 * s, period: s / 2) }

    @Test func aMovingSilenceInsideGaitIsFilledAtTheGaitPeriod() {
        let timeline = ActivityTimeline(segments: [walking(0, 21 * s)])
        let inferred = InferredSteps(steps: walk, timeline: timeline, moving: [.init(start: 10 * s, end: 15 * s)])
        #expect(inferred.stretches.count == 1)
        let stretch = inferred.stretches[0]
        #expect(stretch.start == 10 * s && stretch.end == 15 * s && stretch.period == s / 2)
        // floor(5 / 0.5) - 1 = 9 steps, evenly spaced, every 0.5 s.
        #expect(stretch.times == steps(10 * s + s / 2, 14 * s + s / 2, period: s / 2))
        #expect(inferred.count == 9 && inferred.times == stretch.times)
    }

    @Test func atMostOnePerGaitPeriod() {
        // A silence of 5.4 s at a 0.5 s period: 9 steps 0.54 s apart, not 10.
        let steps = steps(0, 10 * s, period: s / 2) + steps(15 * s + 4 * s / 10, 20 * s, period: s / 2)
        let inferred = InferredSteps(steps: steps, timeline: ActivityTimeline(segments: [walking(0, 21 * s)]),
                                     moving: [.init(start: 10 * s, end: 15 * s + 4 * s / 10)])
        let times = [10 * s] + inferred.times + [15 * s + 4 * s / 10]
        #expect(inferred.count == 9)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= s / 2) }
    }

    @Test func nothingIsInferredWithoutMotionGaitOrPeriod() {
        let silence = InferredSteps.Silence(start: 10 * s, end: 15 * s)
        // The signal did not move through it (a real pause the classifier held as walking).
        #expect(InferredSteps(steps: walk, timeline: ActivityTimeline(segments: [walking(0, 21 * s)]), moving: []).count == 0)
        // The classifier says still for part of it: not one gait run.
        let split = ActivityTimeline(segments: [walking(0, 12 * s), ActivitySegment(start: 12 * s, end: 13 * s, label: .still, confidence: 80, announced: 12 * s),
                                                walking(13 * s, 21 * s)])
        #expect(InferredSteps(steps: walk, timeline: split, moving: [silence]).count == 0)
        // Walking then running is one gait run.
        let mixed = ActivityTimeline(segments: [walking(0, 12 * s), ActivitySegment(start: 12 * s, end: 21 * s, label: .running, confidence: 80, announced: 12 * s)])
        #expect(InferredSteps(steps: walk, timeline: mixed, moving: [silence]).count == 9)
        // Under four intervals on either side: no period, nothing inferred.
        let few = [9 * s, 9 * s + s / 2, 10 * s, 15 * s, 15 * s + s / 2, 16 * s]
        #expect(InferredSteps(steps: few, timeline: ActivityTimeline(segments: [walking(0, 21 * s)]), moving: [silence]).count == 0)
        // A silence not longer than twice the period: nothing.
        let slow = steps(0, 10 * s, period: 3 * s / 2) + steps(11 * s + 9 * s / 10, 20 * s, period: 3 * s / 2)
        #expect(InferredSteps(steps: slow, timeline: ActivityTimeline(segments: [walking(0, 21 * s)]),
                              moving: [.init(start: 9 * s, end: 11 * s + 9 * s / 10)]).count == 0)
    }

    @Test func thePeriodComesFromAfterTheSilenceWhenNotBefore() {
        let steps = [0, s / 2, 10 * s / 2] + steps(8 * s, 12 * s, period: s)
        let inferred = InferredSteps(steps: steps, timeline: ActivityTimeline(segments: [walking(0, 13 * s)]), moving: [.init(start: 5 * s, end: 8 * s)])
        #expect(inferred.stretches.map(\.period) == [s])
        #expect(inferred.times == [6 * s, 7 * s])
    }

    /// The tracker: a silence is moving only when every whole second in it moved (std of |a| at
    /// least 0.3 m/s², two samples or more); a still second or a missing one breaks it. Each case:
    /// pieces of signal (from s, to s, std of |a|), then the step that ends the silence from 0 (s).
    @Test(arguments: [
        ("moving", [(0.0, 6.0, 0.5)], 5.0 + 1.0 / 3, true),
        ("a still second", [(0, 3, 0.5), (3, 4, 0.2), (4, 6, 0.5)], 5.0 + 1.0 / 3, false),
        ("a second without samples", [(0, 2, 0.5), (3, 6, 0.5)], 5.0 + 1.0 / 3, false),
        ("not longer than 2 s", [(0, 3, 0.5)], 2.0, false),
    ] as [(String, [(Double, Double, Double)], Double, Bool)])
    func theTrackerNeedsEveryWholeSecondToMove(what: String, pieces: [(Double, Double, Double)], end: Double, found: Bool) {
        var tracker = SilenceMotionTracker()
        tracker.counted(0)
        for (from, to, std) in pieces {
            var t = Int64(from * 1e9)
            var up = true
            while t < Int64(to * 1e9) {
                tracker.add(Sample(timestamp: t, accel: Vector3(0, 0, 9.81 + (up ? std : -std))))
                up.toggle()
                t += s / 20
            }
        }
        let stop = Int64((end * 1e9).rounded())
        tracker.counted(stop)
        #expect(tracker.silences == (found ? [.init(start: 0, end: stop)] : []), "\(what)")
    }

    /// The same inferred steps for every batching of a real wrist walk where the counter falls
    /// silent during gait (Bangle.js `100.csv`).
    @Test(.enabled(if: TestPaths.datasetsPresent, Comment(rawValue: TestPaths.datasetsMissingReason)),
          arguments: [DeliveryPolicy.samples(1), .samples(7), .samples(4096), .latency(seconds: 2.5), .latency(seconds: 600)])
    func batchInvariantOnARealWalk(policy: DeliveryPolicy) throws {
        let path = TestPaths.datasetsRoot + "/steps/bangle/100.csv"
        let (whole, h0) = try StandardAnalyzers.replay(path: path, policy: .samples(100_000))
        let reference = h0.stepSummary(of: whole.sessions[0].pipeline)
        #expect((reference.inferred?.count ?? 0) > 0, "the walk has inferred steps")
        let (replay, h) = try StandardAnalyzers.replay(path: path, policy: policy)
        let summary = h.stepSummary(of: replay.sessions[0].pipeline)
        #expect(summary == reference)
        #expect(h.stepSummary(of: replay.sessions[0].pipeline, inferring: false).inferred == nil)
    }
}
