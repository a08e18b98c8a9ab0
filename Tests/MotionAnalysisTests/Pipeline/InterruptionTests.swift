import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// A pause or a lost device (a recording's interruption events) is not bridged as if it were data:
/// the analyzers restart there, the stream statistics do not call it a gap, the replay delivers
/// what was pending before it; and the results still do not depend on the batching.
@Suite struct InterruptionTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

    /// Every analyzer is batch-invariant with interruptions in the stream (every fixed batch size,
    /// random splits, every latency, the file streamed with its event lines).
    @Test(arguments: BatchInvarianceTests.subjects, [Int64(0), 3_000_000_000])
    func analyzersStayBatchInvariantWithInterruptions(subject: BatchInvariance.Subject, shiftNs: Int64) throws {
        let path = try BatchInvariance.withInterruptions(Self.walk, at: [400, 401, 1700, 2900], shiftNs: shiftNs)
        #expect(try Recording.read(path: path).events.count == 8)
        let problems = try BatchInvariance.problems(subject, recording: path)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A step counter interrupted between two samples 20 ms apart restarts as after a long gap:
    /// the samples after the interruption give the steps they give after a 10 s hole, moved by
    /// 10 s. Here a walk is interrupted and two more steps follow before the device lies still:
    /// bridged, they continue the walk and count; after the restart they are an unconfirmed run.
    @Test func theCounterRestartsAtAnInterruptionHoweverShortTheInterval() throws {
        let a = SyntheticMotion.walking(stepHz: 1.8, seconds: 20, seed: 5)
        let t0 = a.last!.timestamp + 10_000_000
        let tail = SyntheticMotion.walking(stepHz: 1.8, seconds: 1.2, seed: 6)
        let still = SyntheticMotion.still(seconds: 6, rateHz: 100).map { s -> Sample in
            var s = s; s.timestamp += tail.last!.timestamp + 10_000_000; return s
        }
        let continued = (tail + still).map { s -> Sample in var s = s; s.timestamp += t0; return s }
        let hole: Int64 = 10_000_000_000  // a multiple of the 40 ms grid
        let afterHole = continued.map { s -> Sample in var s = s; s.timestamp += hole; return s }

        var interrupted = try StepCounter()
        var stepsInterrupted: [Int64] = []
        try interrupted.process(a, into: &stepsInterrupted)
        interrupted.interrupt(into: &stepsInterrupted)
        try interrupted.process(continued, into: &stepsInterrupted)

        var gapped = try StepCounter()
        var stepsGapped: [Int64] = []
        try gapped.process(a, into: &stepsGapped)
        try gapped.process(afterHole, into: &stepsGapped)
        #expect(stepsInterrupted.count > 30)
        #expect(stepsInterrupted == stepsGapped.map { $0 >= afterHole[0].timestamp ? $0 - hole : $0 })

        // Without the interruption the same samples are one walk: the two steps are bridged in.
        var bridged = try StepCounter()
        var stepsBridged: [Int64] = []
        try bridged.process(a + continued, into: &stepsBridged)
        #expect(stepsBridged.count > stepsInterrupted.count)
        #expect(stepsInterrupted.allSatisfy { $0 < t0 })
    }

    /// The interval across an interruption is not a gap and does not lower the rate.
    @Test func streamStatisticsCountInterruptionsNotGaps() {
        var s = StreamStatistics(declaredRateHz: 100)
        let first = (0..<100).map { Sample(timestamp: Int64($0) * 10_000_000, accel: .zero) }
        let second = (0..<100).map { Sample(timestamp: 5_000_000_000 + Int64($0) * 10_000_000, accel: .zero) }
        s.add(SampleBatch(samples: first, deliveredAt: 0))
        s.interrupt()
        s.add(SampleBatch(samples: second, deliveredAt: 0))
        #expect(s.gapCount == 0 && s.interruptions == 1)
        #expect(s.interruptedNanoseconds == 5_000_000_000 - 990_000_000)
        #expect(abs((s.effectiveRateHz ?? 0) - 100) < 1e-9)
        var g = StreamStatistics(declaredRateHz: 100)
        g.add(SampleBatch(samples: first + second, deliveredAt: 0))
        #expect(g.gapCount == 1 && g.interruptions == 0)
    }

    /// Replayed, a pause delivers what was pending and interrupts the pipeline once; the replay of
    /// a file with pauses differs from the same rows without them.
    @Test func theReplayDeliversBeforeAnInterruptionAndInterrupts() throws {
        let path = try BatchInvariance.withInterruptions(Self.walk, at: [1000])
        let replay = try RecordingReplay.run(path: path) { h in
            let (p, _) = try StandardAnalyzers.pipeline(for: h)
            return [ReplaySession(policy: .samples(300), pipeline: p)]
        }
        let session = replay.sessions[0]
        #expect(session.interruptions == 1)
        // 300, 300, 300, then the 100 pending at the pause; then the rest in batches of 300.
        #expect(session.delivery.deliveries == 4 + (session.samplesPushed - 1000 + 299) / 300)
        let plain = try StandardAnalyzers.replay(path: Self.walk, policy: .samples(300))
        let (_, handles) = try StandardAnalyzers.pipeline(for: replay.header)
        #expect(session.pipeline.result(of: handles.steps) != plain.0.sessions[0].pipeline.result(of: plain.1.steps))
    }
}
