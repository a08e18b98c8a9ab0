import MotionCore
import MotionSystem
import Testing
@testable import MotionIIO

/// The per-sample path of the capture (batch 1, buffer waiting): what the machine keeps between
/// wake-ups decides whether the driver can reuse its arrays (no allocation per sample).
@Suite("CaptureMachine hot path")
struct CaptureMachineHotPathTests {
    typealias K = FakeKernel

    /// Drives a machine as ``IIOCapture`` does: one reused array per drain, batches handed to a
    /// sink that does not keep them. Returns the drained arrays' base addresses and the samples.
    func drive(samples n: Int, plan: CapturePlan) -> (addresses: Set<UInt>, delivered: [Int64], machine: CaptureMachine) {
        var m = CaptureMachine(settings: CaptureMachine.Settings(sampleLimit: n))
        var now: Int64 = 1_000_000_000
        var next = 0
        var scratch: [Sample] = []
        var addresses = Set<UInt>()
        var delivered: [Int64] = []
        var action = m.handle(.start, at: now)
        for _ in 0..<(10 * n + 100) {
            let event: CaptureMachine.Event
            switch action {
            case .prepare: event = .prepared([K.setup(plan)])
            case .startStreaming, .resumeStreaming: event = .streaming
            case .wait:
                now += 10 * K.ms
                event = .woke(CaptureMachine.Wake(readable: .stream(0)))
            case .drain, .collect:  // (collect: never asked, joinSamples is 1)
                var raw = scratch
                scratch = []
                raw.removeAll(keepingCapacity: true)
                raw.append(K.sample(next, t: now))
                next += 1
                raw.withUnsafeBufferPointer { addresses.insert(UInt(bitPattern: $0.baseAddress)) }
                scratch = raw
                event = .drained(CaptureMachine.Drain(samples: raw))
            case .deliver(let b):
                delivered += b.samples.map(\.timestamp)
                event = .delivered
            case .yield: event = .yielded
            case .probe: event = .probed(.available)
            case .mark: event = .marked
            case .pauseStreaming: event = .paused
            case .awaitDevice: event = .woke(CaptureMachine.Wake())
            case .release: event = .released
            case .closeRecording: event = .recordingClosed(nil)
            case .finished: return (addresses, delivered, m)
            }
            action = m.handle(event, at: now)
        }
        Issue.record("the machine did not finish")
        return (addresses, delivered, m)
    }

    @Test(arguments: [CapturePlan.WaitStrategy.pollWatermark, .pollDrain])
    func perSampleDeliveryLetsGoOfEveryDrainedArray(strategy: CapturePlan.WaitStrategy) {
        // Were the machine to keep a drained array past its delivery (in `ready`, a stream's
        // state, the timestamp repair), the driver's next drain would find it shared and
        // allocate: the base addresses would differ.
        let r = drive(samples: 500, plan: K.plan(batch: 1, strategy: strategy))
        #expect(r.delivered.count == 500)
        #expect(r.delivered == (0..<500).map { K.sample($0, t: 1_000_000_000 + Int64($0 + 1) * 10 * K.ms).timestamp })
        #expect(r.addresses.count == 1)
        #expect(r.machine.statistics.batches == 500 && r.machine.statistics.refills == 500)
    }

    @Test func streamSetPopsLowestIndexFirst() {
        var s: CaptureMachine.Streams = [.stream(3), .stream(0), .stream(31)]
        var order: [Int] = []
        while let i = s.popFirst() { order.append(i) }
        #expect(order == [0, 3, 31])
        #expect(s.isEmpty)
        var all = CaptureMachine.Streams.first(32)
        var n = 0
        while all.popFirst() != nil { n += 1 }
        #expect(n == 32)
    }
}
