import Foundation
import MotionCore
@testable import MotionIIO
import MotionSystem
@testable import MotionSession

/// A synthetic capture for the session's tests: a 2 Hz walk at 100 Hz (timestamps on the
/// monotonic clock, 10 ms apart), delivered in batches with the cumulative figures a capture
/// reports, and the clocks at each delivery.
struct FakeCapture {
    static let period: Int64 = 10_000_000
    static let start: Int64 = 5_000_000_000
    var samples: [Sample]
    var progress = CaptureMachine.Progress()
    var synchronized: Bool
    /// Wall clock minus monotonic clock.
    var wallOffset: Int64 = 1_764_580_758_000_000_000 - 5_000_000_000

    init(seconds: Double, synchronized: Bool = true) {
        self.synchronized = synchronized
        let n = Int(seconds * 100)
        samples = (0..<n).map { i in
            let t = Double(i) / 100
            let bounce = 3.0 * sin(2 * .pi * 2.0 * t) + 0.4 * sin(2 * .pi * 4.0 * t + 0.3)
            return Sample(timestamp: Self.start + Int64(i) * Self.period,
                          accel: Vector3(0.5 * sin(2 * .pi * 1.0 * t), 0.3, 9.81 + bounce), gyro: .zero)
        }
        progress.startedAt = Self.start
        progress.now = Self.start
    }

    static func device(hwfifo: Bool = true) -> CaptureStatistics.Device {
        let plan = CapturePlan(requestedRate: 100, rate: 100, batchSamples: 100, latencySeconds: 1, hwfifoTimeout: hwfifo ? 1 : nil,
                               waitStrategy: hwfifo ? .pollDrain : .pollWatermark, bufferCapacity: 100, kernelWatermark: hwfifo ? 1 : 100,
                               kernelBuffersCount: 4, contextTimeoutMs: 3000, expectedBurst: hwfifo ? 100 : nil)
        var d = CaptureStatistics.Device(id: "iio:device0", name: "accel_3d", plan: plan, actualRate: 100, hwfifoTimeout: hwfifo ? 1 : nil,
                                         watermark: plan.kernelWatermark, timestampClock: "monotonic", hasTimestamp: true)
        d.identity = DeviceIdentity(name: "accel_3d", parent: "/devices/virtual/misc/uhid/0003:0000:0000.0001/HID-SENSOR-200073.1.auto", id: "iio:device0")
        return d
    }

    func clock(at t: Int64) -> ClockReading {
        ClockReading(wallNanoseconds: t + wallOffset, sync: WallClock.SyncState(synchronized: synchronized, maxErrorMicroseconds: 16000),
                     monotonicNanoseconds: t, bootID: "1a2b3c4d-0000-4000-8000-000000000000")
    }

    /// The batch of samples `range`, delivered at its last sample + 2 ms, with the figures so far.
    mutating func deliver(_ range: Range<Int>) -> (SampleBatch, CaptureMachine.Progress, ClockReading) {
        let part = Array(samples[range])
        let at = part[part.count - 1].timestamp + 2_000_000
        progress.samples += part.count
        progress.batches += 1
        progress.userspaceReturns += 1
        progress.deviceDeliveries += 1
        progress.now = at
        progress.counters = ProcessCounters(voluntarySwitches: Int64(progress.batches), involuntarySwitches: 0,
                                            userCPUNanoseconds: Int64(progress.batches) * 100_000, systemCPUNanoseconds: Int64(progress.batches) * 50_000)
        return (SampleBatch(samples: part, deliveredAt: at), progress, clock(at: at))
    }

    /// `progress` at monotonic time `t` (for marks and the end).
    func progress(at t: Int64) -> CaptureMachine.Progress {
        var p = progress
        p.now = t
        return p
    }
}

/// Runs a machine, answering every action with success (or the results `answer` gives), and
/// records the actions.
struct MachineRun {
    var machine: SessionMachine
    var actions: [SessionMachine.Action] = []
    /// The answer to an action (default: done, with a file growing by the rows' bytes).
    var answer: (SessionMachine.Action) -> SessionMachine.ActionResult = { _ in .done(fileBytes: nil) }
    var bytes: Int64 = 0

    init(_ settings: SessionMachine.Settings) { machine = SessionMachine(settings: settings) }

    mutating func feed(_ input: SessionMachine.Input) {
        var a = machine.handle(input)
        var steps = 0
        while let action = a, steps < 10_000 {
            actions.append(action)
            var result = answer(action)
            if case .done(nil) = result {
                switch action {
                case .open: bytes = 500; result = .done(fileBytes: bytes)
                case .appendRows(let b): bytes += Int64(b.count * 40); result = .done(fileBytes: bytes)
                case .appendEvent: bytes += 30; result = .done(fileBytes: bytes)
                default: break
                }
            }
            a = machine.completed(result)
            steps += 1
        }
    }

    var opened: [String] { actions.compactMap { if case .open(let p, _, _) = $0 { return p } else { return nil } } }
    var closed: [SessionSummary] { actions.compactMap { if case .closeRecording(_, let s, _) = $0 { return s } else { return nil } } }
    var events: [SessionEvent] { actions.compactMap { if case .log(let e, _) = $0 { return e } else { return nil } } }
    var reports: [BatchReport] { actions.compactMap { if case .report(let r) = $0 { return r } else { return nil } } }
    var recordingEvents: [RecordingEvent] { actions.compactMap { if case .appendEvent(let e) = $0 { return e } else { return nil } } }
    var deleted: [String] { actions.compactMap { if case .delete(let n, _, _) = $0 { return n } else { return nil } } }
    var finished: SessionSummary? { actions.compactMap { if case .finished(let s, _) = $0 { return s } else { return nil } }.last }
}
