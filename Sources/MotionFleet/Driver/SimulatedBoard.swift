import MotionCore
import MotionIIO
import MotionSession
import MotionSystem

/// A recording replayed as a board would capture it (`replay RECORDING --publish ...`): its
/// samples batched by MotionCore's ``MotionCore/DeliveryReplay`` at the capture's policy, each
/// batch handed to a ``MotionSession/SessionRecorder`` (the same session machine, analysis,
/// reports and summary as `capture`) when its last sample is due, so that a fleet test sees the
/// same messages a board sends. Pauses and lost devices in the recording end the interval as
/// marks, as live.
public enum SimulatedBoard {
    /// How fast.
    public enum Pace: String, Sendable {
        /// Each batch at its delivery time after the first sample (the samples' own clock).
        case realtime
        /// As fast as the pipeline goes.
        case fast
    }

    /// Replays `path` into a session with `settings`, telling `observer`.
    /// - Parameters:
    ///   - stop: asked after each batch and when a sleep is interrupted by a signal; true ends
    ///     the session (as SIGINT ends a capture).
    /// - Returns: the recorder, finished (its machine has the summary).
    /// - Throws: the reader's ``MotionCore/RecordingError`` or what the recorder throws.
    public static func run<O: SessionObserver>(path: String, policy: DeliveryPolicy, pace: Pace, settings: SessionMachine.Settings,
                                               observer: O, stop: () -> Bool) throws -> SessionRecorder<O> {
        let reader = try RecordingReader(path: path)
        var s = settings
        s.source = "replay \(path)"
        var recorder = SessionRecorder(settings: s, observer: observer)
        var delivery = DeliveryReplay(policy: policy)
        let latency: Double
        let batch: Int
        switch policy {
        case .latency(let ns): latency = Double(ns) / 1e9; batch = max(1, Int((reader.header.declaredRate ?? 100) * latency))
        case .samples(let n): batch = n; latency = Double(n) / (reader.header.declaredRate ?? 100)
        }
        let device = CaptureStatistics.Device.simulated(name: "replay", rateHz: reader.header.declaredRate, batchSamples: batch, latencySeconds: latency)
        let startCounters = ProcessCounters.now()
        var progress = CaptureMachine.Progress()
        progress.startedAt = MonotonicClock.nanoseconds()
        progress.now = progress.startedAt
        try recorder.feed(.begin(devices: [device], identities: [DeviceIdentity(name: "replay", parent: path, id: "simulated")],
                                 clock: ClockReading.now(bootID: WallClock.bootID())))
        var firstTimestamp: Int64?
        var stopped = false

        func deliver(_ b: SampleBatch) throws {
            guard let first = b.samples.first else { return }
            let t0 = firstTimestamp ?? first.timestamp
            firstTimestamp = t0
            if pace == .realtime, !MonotonicClock.sleep(until: progress.startedAt + (b.deliveredAt - t0), interrupted: stop) {
                stopped = true
            }
            progress.samples += b.count
            progress.batches += 1
            progress.userspaceReturns += 1
            progress.deviceDeliveries += 1
            progress.now = MonotonicClock.nanoseconds()
            progress.counters = ProcessCounters.now().since(startCounters)
            try recorder.feed(.batch(b, progress, clock: nil))
            if stop() { stopped = true }
        }

        reading: while let chunk = try reader.next(maxSamples: 4096) {
            var events = chunk.events[...]
            for (i, sample) in chunk.samples.enumerated() {
                while let e = events.first, e.sampleIndex <= chunk.firstSampleIndex + i {
                    events.removeFirst()
                    if let b = delivery.flush(at: e.time) { try deliver(b) }
                    try mark(e, &recorder, progress)
                }
                if let b = delivery.push(sample) { try deliver(b) }
                if stopped { break reading }
            }
        }
        if !stopped, let b = delivery.finish() { try deliver(b) }
        progress.now = MonotonicClock.nanoseconds()
        try recorder.close(stopped ? .signal(15) : .duration, progress: progress)
        return recorder
    }

    private static func mark<O: SessionObserver>(_ e: RecordingEvent, _ recorder: inout SessionRecorder<O>, _ p: CaptureMachine.Progress) throws {
        switch e.kind {
        case .pause: try recorder.feed(.mark(.paused(at: e.time), p))
        case .resume: try recorder.feed(.mark(.resumed(at: e.time), p))
        default: break
        }
    }
}
