import Foundation
import MotionCore
import MotionSystem
import MotionTestSupport
import Testing
@testable import MotionIIO

/// ``IIOCapture`` over a ``SimulatedDevice`` (the seam `capture benchmark` measures the whole
/// per-wake-up path through): the real driver, a pipe for the buffer, the device's own clock.
/// Each capture holds ``MotionTestSupport/SignalPipeTestLock``: it takes what the process's signal
/// pipe holds, which a signal test running at the same time expects to find there.
@Suite("Simulated capture", .serialized)
struct SimulatedCaptureTests {
    /// Keeps every batch.
    struct Collector: CaptureSink {
        var batches: [SampleBatch] = []
        var counters = 0
        mutating func begin(_ devices: [CaptureStatistics.Device]) {}
        mutating func write(_ batch: SampleBatch, progress: CaptureMachine.Progress) {
            batches.append(batch)
            if progress.counters != nil { counters += 1 }
        }
        mutating func close(_ reason: CaptureStopReason, progress: CaptureMachine.Progress) {}
        var wantsProcessCounters: Bool { true }
        /// Samples it takes joined into one batch (``CaptureSink/maxJoinedSamples``).
        var join = 1
        var maxJoinedSamples: Int { join }
        /// How long a joined sample may wait (``CaptureSink/maxJoinNanoseconds``).
        var joinDelay: Int64 = 250_000_000
        var maxJoinNanoseconds: Int64 { joinDelay }
    }

    /// The driver's collections (``CaptureMachine/Action/collect(stream:recheckScale:upTo:until:)``)
    /// over the real `poll` and refills: at batch 1 with a sink that takes joined batches, the
    /// same samples and the same wake-ups, in batches of 25 (250 ms at 100 Hz).
    /// A sink that lets a sample wait a second (no live view) gets batches of 100, and a delay
    /// asked outside 1 ms ... 1 s is clamped (10 s: still 100).
    @Test func aJoiningSinkGetsTheSameSamplesAndWakeUpsInFewerBatches() throws {
        func run(join: Int, delay: Int64 = 250_000_000) throws -> (CaptureStatistics, Collector, [Sample]) {
            let device = try SimulatedDevice(rateHz: 100, window: .init(warmupReads: 1, reads: 3))
            let capture = IIOCapture(simulating: device, options: CaptureOptions(rate: 100, batching: .samples(1), sampleLimit: 1_010))
            var sink = Collector()
            sink.join = join
            sink.joinDelay = delay
            let stats = try SignalPipeTestLock.withLock { try capture.run(into: &sink) }
            // Times from the device's first scan (each device starts at the real clock).
            let samples = sink.batches.flatMap(\.samples).map { s in
                Sample(timestamp: s.timestamp - device.start, accel: s.accel, gyro: s.gyro)
            }
            return (stats, sink, samples)
        }
        let (a, plain, plainSamples) = try run(join: 1)
        let (b, joined, joinedSamples) = try run(join: 32)
        #expect(plain.batches.count == 1_010 && a.batches == 1_010)
        #expect(joined.batches.map(\.count) == Array(repeating: 25, count: 40) + [10])
        #expect(b.batches == 41 && b.samples == 1_010 && b.stopReason == .sampleCount)
        let same = joinedSamples == plainSamples
        #expect(same && joinedSamples.count == 1_010)
        #expect(b.userspaceReturns == a.userspaceReturns && a.userspaceReturns == 1_010)
        #expect(b.devices.first?.drainsWithData == 1_010 && b.refills == a.refills)
        for delay in [1_000_000_000, 10_000_000_000] as [Int64] {
            let (c, second, secondSamples) = try run(join: 128, delay: delay)
            #expect(second.batches.map(\.count) == Array(repeating: 100, count: 10) + [10], "delay \(delay)")
            let sameAgain = secondSamples == plainSamples
            #expect(sameAgain && c.samples == 1_010 && c.userspaceReturns == 1_010 && c.stopReason == .sampleCount)
        }
    }

    @Test(arguments: [1, 100])
    func deliversTheDevicesScansOneWakeUpPerBatch(batch: Int) throws {
        let device = try SimulatedDevice(rateHz: 100, window: .init(warmupReads: 1, reads: 3))
        let samples = 5 * batch
        let capture = IIOCapture(simulating: device, options: CaptureOptions(rate: 100, batching: .samples(batch), sampleLimit: samples))
        var sink = Collector()
        let stats = try SignalPipeTestLock.withLock { try capture.run(into: &sink) }
        let delivered = sink.batches.flatMap(\.samples)
        #expect(stats.stopReason == .sampleCount && stats.samples == samples && delivered.count == samples)
        #expect(stats.batches == 5 && sink.batches.allSatisfy { $0.count == batch })
        #expect(stats.userspaceReturns == 5)
        #expect(delivered.map(\.timestamp) == (0..<samples).map { device.start + Int64($0) * device.period })
        // The walking-like signal: gravity on z, decoded with the device's scale.
        #expect(delivered.allSatisfy { abs($0.accel.z - 9.81) < 4 && abs($0.accel.x) < 1.3 })
        let report = try #require(stats.devices.first)
        #expect(report.plan.batchSamples == batch && report.plan.waitStrategy == .pollDrain && report.scaleChanges == 0)
        #expect(report.drainsWithData == 5 && stats.refills == (batch == 1 ? 5 : 10))
        #expect(device.window.complete && device.window.endScans - device.window.startScans == 3 * batch)
        #expect(sink.counters == 5)
    }

    /// The simulated clock is the device's: at batch 100 (1 s per wake-up) the scale is re-read
    /// at every wake-up, and finds it unchanged; a different value is seen as a change.
    @Test func theScaleWatchReadsTheFilesBehindTheDecoder() throws {
        let device = try SimulatedDevice()
        let iio = try #require(device.context.device(named: "iio:device0"))
        let layout = ScanLayout(channels: device.sensor.scanChannels.compactMap { c in c.format.map { (c.id, c.index ?? 0, $0) } })
        let decoder = ScanDecoder(layout: layout) { _ in (scale: SimulatedDevice.scale, offset: 0) }
        var same = ScaleWatch(decoder: decoder, device: iio, local: false, table: device.values)
        let unchanged = same.changed(from: decoder)
        #expect(!unchanged)
        var values = device.values
        values["iio:device0/in_accel_scale"] = "0.019613300\n"
        var other = ScaleWatch(decoder: decoder, device: iio, local: false, table: values)
        let changed = other.changed(from: decoder)
        #expect(changed)
        values["iio:device0/in_accel_scale"] = nil
        var missing = ScaleWatch(decoder: decoder, device: iio, local: false, table: values)
        let fallback = missing.changed(from: decoder)
        #expect(fallback, "an unreadable scale falls back to the format's (1)")
        let capture = IIOCapture(simulating: device, options: CaptureOptions(rate: 100, batching: .samples(100), sampleLimit: 500))
        var sink = Collector()
        let stats = try SignalPipeTestLock.withLock { try capture.run(into: &sink) }
        #expect(stats.devices.first?.scaleChanges == 0 && stats.samples == 500)
    }

    /// A local attribute file is opened once and read again from offset 0 (`pread`) at each
    /// check: a value written since is seen (a regular file stands in for sysfs here; kernel
    /// tests 55 and 58 read the real scale this way, 0 scale changes), a failed read is nil, and
    /// a file that could not be opened is opened for each read.
    @Test func theScaleWatchRereadsAnOpenFileFromTheStart() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scale-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { unlink(path) }
        try "0.009806650\n".write(toFile: path, atomically: false, encoding: .utf8)
        let open = ScaleWatch.Source.sysfs(path.utf8CString, try FileDescriptor.openForReading(path))
        #expect(ScaleWatch.read(open) == 0.00980665)
        #expect(ScaleWatch.read(open) == 0.00980665, "read again from offset 0")
        let handle = try FileDescriptor.open(path, flags: O_WRONLY | O_TRUNC)
        try handle.write(Array(" 0.019613300\n".utf8))
        #expect(ScaleWatch.read(open) == 0.0196133)
        #expect(ScaleWatch.read(.sysfs(path.utf8CString, nil)) == 0.0196133)
        #expect(ScaleWatch.read(.sysfs((path + ".missing").utf8CString, nil)) == nil)
        let directory = ScaleWatch.Source.sysfs(FileManager.default.temporaryDirectory.path.utf8CString,
                                                try FileDescriptor.openForReading(FileManager.default.temporaryDirectory.path))
        #expect(ScaleWatch.read(directory) == nil, "a read that fails (EISDIR) is unreadable")
    }
}
