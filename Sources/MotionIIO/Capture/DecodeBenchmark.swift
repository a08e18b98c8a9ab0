import MotionCore
import MotionSystem

/// Measures the CPU cost of the capture path after the kernel read — the ``CaptureMachine``'s
/// per-wake-up work, demux and conversion (``ScanDecoder``), timestamp repair and gap detection,
/// and optionally a ``CaptureSink`` (the capture command's analysis) — on synthetic hid-sensor scans (3 x `le:s32/32>>0` + `le:s64/64>>0` timestamp, 24 bytes),
/// delivered in batches of a given size (one wake-up per batch).
public enum DecodeBenchmark {
    /// One measurement.
    public struct Result: Sendable {
        /// Scans per batch.
        public var batch: Int
        /// Scans processed.
        public var samples: Int
        /// Thread CPU time, ns (`CLOCK_THREAD_CPUTIME_ID`).
        public var cpuNanoseconds: Int64
        /// CPU ns per sample.
        public var nanosecondsPerSample: Double { Double(cpuNanoseconds) / Double(max(1, samples)) }
        /// Sum of all converted values (keeps the work observable; compared across batch sizes).
        public var checksum: Double
    }

    /// The hid-sensor accel layout used by the benchmark.
    public static var layout: ScanLayout {
        let s32 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 32, storageBits: 32, shift: 0)
        let s64 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 64, storageBits: 64, shift: 0)
        return ScanLayout(channels: [("accel_x", 0, s32), ("accel_y", 1, s32), ("accel_z", 2, s32), ("timestamp", 3, s64)])
    }

    /// `count` scans at 100 Hz with a varying signal, as the kernel would write them.
    public static func scans(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 24)
        for i in 0..<count {
            for axis in 0..<3 {
                let v = Int32((i * 37 + axis * 1000) % 20000 - 10000)
                withUnsafeBytes(of: v.littleEndian) { bytes += $0 }
            }
            bytes += [0, 0, 0, 0]
            withUnsafeBytes(of: (Int64(i) * 10_000_000).littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// Runs the user-space path of a capture over `samples` scans in batches of `batch`: each
    /// batch is one wake-up of the ``CaptureMachine`` (buffer waiting, as at batch 1 or with a
    /// hardware FIFO), whose drain is decoded here from the synthetic scans; everything the real
    /// driver does except the system calls (poll, libiio's refill) and the sink.
    public static func run(samples: Int, batch: Int) -> Result {
        var sink = DiscardingSink()
        return run(samples: samples, batch: batch, into: &sink)
    }

    /// A sink that drops every batch (the benchmark without the capture's sink).
    public struct DiscardingSink: CaptureSink {
        /// Creates the sink.
        public init() {}
        /// Does nothing.
        public mutating func begin(_ devices: [CaptureStatistics.Device]) {}
        /// Does nothing.
        public mutating func write(_ batch: SampleBatch, progress: CaptureMachine.Progress) {}
        /// Does nothing.
        public mutating func close(_ reason: CaptureStopReason, progress: CaptureMachine.Progress) {}
    }

    /// As ``run(samples:batch:)``, delivering every batch to `sink` as the driver does (e.g. the
    /// capture command's analysis sink), timed with it.
    public static func run<S: CaptureSink>(samples: Int, batch: Int, into sink: inout S) -> Result {
        let data = scans(samples)
        let layout = self.layout
        let decoder = ScanDecoder(layout: layout) { _ in (scale: 0.00980665, offset: 0) }
        let plan = CapturePlan(requestedRate: 100, rate: 100, batchSamples: batch, latencySeconds: Double(batch) / 100,
                               hwfifoTimeout: batch > 1 ? Double(batch) / 100 : 0, waitStrategy: .pollDrain,
                               bufferCapacity: batch, kernelWatermark: 1, kernelBuffersCount: 4, contextTimeoutMs: 3000,
                               expectedBurst: batch > 1 ? batch : nil)
        let report = CaptureStatistics.Device(id: "iio:device0", name: "accel_3d", plan: plan, actualRate: 100, hwfifoTimeout: nil,
                                              watermark: 1, timestampClock: "monotonic", hasTimestamp: true)
        var machine = CaptureMachine(settings: CaptureMachine.Settings(sampleLimit: samples))
        var checksum = 0.0
        var now: Int64 = 0
        var scratch: [Sample] = []
        let start = threadCPU()
        data.withUnsafeBytes { all in
            var offset = 0
            let step = layout.scanBytes * batch
            var action = machine.handle(.start, at: now)
            loop: while true {
                let event: CaptureMachine.Event
                switch action {
                case .prepare: event = .prepared([CaptureMachine.StreamSetup(report: report, period: 10_000_000, hasAccel: true)])
                case .startStreaming:
                    do { try sink.begin([report]); event = .streaming } catch {
                        event = .failed(.recording(stage: .create, detail: "\(error)"))
                    }
                case .resumeStreaming: event = .streaming
                case .wait:
                    now += Int64(batch) * 10_000_000
                    event = .woke(CaptureMachine.Wake(readable: .stream(0)))
                case .drain, .collect:  // (collect: never asked, joinSamples is 1)
                    // As the driver: the last drain's array is reused once the machine let go of it.
                    var out = scratch
                    scratch = []
                    out.removeAll(keepingCapacity: true)
                    if offset < all.count {
                        let end = min(all.count, offset + step)
                        decoder.decode(UnsafeRawBufferPointer(rebasing: all[offset..<end]), into: &out)
                        offset = end
                    }
                    scratch = out
                    event = .drained(CaptureMachine.Drain(samples: out))
                case .yield: event = .yielded
                case .probe: event = .probed(.available)
                case .deliver(let b):
                    for s in b.samples { checksum += s.accel.x + s.accel.y + s.accel.z }
                    do { try sink.write(b, progress: CaptureMachine.Progress()); event = .delivered } catch {
                        event = .deliveryFailed(.recording(stage: .write, detail: "\(error)"))
                    }
                case .mark: event = .marked
                case .pauseStreaming: event = .paused
                case .awaitDevice: event = .woke(CaptureMachine.Wake())
                case .release: event = .released
                case .closeRecording:
                    do { try sink.close(.duration, progress: CaptureMachine.Progress()); event = .recordingClosed(nil) } catch {
                        event = .recordingClosed(.recording(stage: .close, detail: "\(error)"))
                    }
                case .finished: break loop
                }
                action = machine.handle(event, at: now)
            }
        }
        return Result(batch: batch, samples: machine.statistics.samples, cpuNanoseconds: threadCPU() - start, checksum: checksum)
    }

    static func threadCPU() -> Int64 { MonotonicClock.threadCPUNanoseconds() }
}
