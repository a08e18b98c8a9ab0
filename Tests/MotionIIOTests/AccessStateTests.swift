import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import MotionIIO
import MotionSystem

struct AccessStateTests {
    @Test(arguments: [
        (EACCES, "accel_3d" as String?, false, "permission-denied"),
        (EPERM, "accel_3d", false, "permission-denied"),
        (EBUSY, "accel_3d", false, "busy"),
        (ENODEV, "accel_3d", true, "lost"),
        (ENODEV, "accel_3d", false, "device-absent"),
        (ENOENT, "accel_3d", false, "device-absent"),
        (ENOENT, nil, false, "no-iio-subsystem"),
        (ENXIO, "accel_3d", true, "lost"),
    ])
    func mapsErrno(_ code: Int32, _ device: String?, _ during: Bool, _ expected: String) {
        let s = AccessState.from(errno: Errno(code), device: device, path: "/dev/iio:device0", duringCapture: during)
        #expect(s?.name == expected)
        #expect(s.map { !$0.message.isEmpty && !$0.remedy.isEmpty } == true)
    }

    @Test func otherErrorsAreNotAccessStates() {
        #expect(AccessState.from(errno: .invalidArgument, device: "x", path: nil, duringCapture: false) == nil)
        #expect(AccessState.from(errno: .timedOut, device: "x", path: nil, duringCapture: true) == nil)
    }

    /// The fresh probe decides first; once it found the device present and accessible, only an
    /// access errno still names a state (a missing attribute is not a missing device).
    @Test(arguments: [
        // (errno, probed, during capture, expected state name or nil)
        (ENOENT, "available", false, nil as String?),
        (ENODEV, "available", true, nil),
        (EINVAL, "available", false, nil),
        (EACCES, "available", false, "permission-denied"),
        (EBUSY, "available", false, "busy"),
        (EINVAL, "busy", false, "busy"),
        (EINVAL, "lost", true, "lost"),
        (ENOENT, "none", false, "device-absent"),
        (ENODEV, "none", true, "lost"),
        (EINVAL, "none", false, nil),
    ])
    func explainsAFailureWithTheFreshProbe(_ code: Int32, _ probedName: String, _ during: Bool, _ expected: String?) {
        let probed: AccessState? = switch probedName {
        case "available": .available
        case "busy": .busy(device: "accel_3d")
        case "lost": .lost(device: "accel_3d")
        default: nil
        }
        let error = SystemError(Errno(code), call: "iio_device_attr_write", subject: "iio:device0/sampling_frequency")
        let s = AccessState.explaining(error, device: "accel_3d", probed: probed, duringCapture: during)
        #expect(s?.name == expected)
    }

    @Test func permissionDeniedNamesFileAndGivesUdevRule() throws {
        let s = AccessState.permissionDenied(device: "accel_3d", path: "/dev/iio:device0")
        #expect(s.message.contains("/dev/iio:device0"))
        #expect(s.remedy.contains(AccessState.udevRule))
        #expect(AccessState.udevRule.contains("SUBSYSTEM==\"iio\""))
        #expect(AccessState.udevRule.contains("MODE=\"0660\""))
        // The remedy names the rule the repository installs, word for word.
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("contrib/udev/60-motionbatch-iio.rules")
        let rule = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.joined(separator: "\n")
        #expect(rule == AccessState.udevRule)
        #expect(AccessState.available.remedy.isEmpty)
    }

    @Test func probeWithoutIIOSubsystem() {
        // On machines without /sys/bus/iio the probe must say so rather than "absent".
        if !AccessProbe.hasIIOSubsystem {
            #expect(AccessProbe.check(device: "accel_3d") == .noIIOSubsystem)
        } else {
            #expect(AccessProbe.check(device: "no-such-device-xyz") == .deviceAbsent(device: "no-such-device-xyz"))
        }
    }
}

struct CapturePlanTests {
    static func sensor(rate: Double? = 100, available: [Double] = [], timeout: Bool = false, wmMax: Int? = nil) -> SensorDescription {
        SensorDescription(
            id: "iio:device0", name: "test", label: nil, kind: .accelerometer, channels: [],
            samplingFrequency: rate, samplingFrequencyAttribute: "sampling_frequency", availableFrequencies: available,
            hasTimestamp: true, timestampClock: nil, isBufferCapable: true,
            fifo: .init(hasTimeout: timeout, timeout: nil, enabled: nil, watermarkMin: nil, watermarkMax: wmMax), stepCounter: nil)
    }

    @Test(arguments: [
        (100.0, [12.5, 26, 52, 104, 208] as [Double], 104.0),
        (39, [12.5, 26, 52], 52),      // tie 26/52 → higher
        (1000, [12.5, 26, 52], 52),
        (1, [12.5, 26, 52], 12.5),
        (77, [], 77),
    ])
    func nearestRate(_ requested: Double, _ available: [Double], _ expected: Double) {
        #expect(CapturePlan.nearestRate(requested, available: available) == expected)
    }

    @Test func hwfifoTimeoutDeviceUsesPollDrainWatermarkOne() throws {
        let p = try CapturePlan.make(for: Self.sensor(timeout: true), rate: 100, batching: .latency(seconds: 1), hasPollDescriptor: true)
        #expect(p.rate == 100 && p.batchSamples == 100 && p.latencySeconds == 1)
        #expect(p.waitStrategy == .pollDrain && p.kernelWatermark == 1 && p.hwfifoTimeout == 1)
        #expect(p.expectedBurst == 100)
        #expect(p.kernelBufferScans >= 400)
        #expect(p.contextTimeoutMs >= 3000)
    }

    @Test func noFIFOUsesWatermarkN() throws {
        let p = try CapturePlan.make(for: Self.sensor(), rate: nil, batching: .samples(100), hasPollDescriptor: true)
        #expect(p.waitStrategy == .pollWatermark && p.kernelWatermark == 100 && p.bufferCapacity == 100 && p.hwfifoTimeout == nil)
        #expect(p.expectedBurst == nil)
        let one = try CapturePlan.make(for: Self.sensor(), rate: 100, batching: .none, hasPollDescriptor: true)
        #expect(one.kernelWatermark == 1 && one.kernelBufferScans >= 200) // 2 s of samples
    }

    @Test func hardwareFIFOCanBeSwitchedOff() throws {
        let p = try CapturePlan.make(for: Self.sensor(timeout: true), rate: 100, batching: .samples(100), hasPollDescriptor: true, hardwareFIFO: false)
        #expect(p.waitStrategy == .pollWatermark && p.kernelWatermark == 100 && p.hwfifoTimeout == 0 && p.expectedBurst == nil)
    }

    @Test func watermarkFIFOIsCappedAtMax() throws {
        let p = try CapturePlan.make(for: Self.sensor(rate: 104, available: [52, 104], wmMax: 32), rate: 100, batching: .latency(seconds: 1), hasPollDescriptor: true)
        #expect(p.rate == 104 && p.batchSamples == 104 && p.kernelWatermark == 32 && p.expectedBurst == 32)
    }

    @Test func networkBackendBlocks() throws {
        let p = try CapturePlan.make(for: Self.sensor(timeout: true), rate: 50, batching: .latency(seconds: 2), hasPollDescriptor: false)
        #expect(p.waitStrategy == .blockingRefill && p.bufferCapacity == 100 && p.contextTimeoutMs >= 5000)
    }

    @Test func errors() {
        #expect(throws: CapturePlanError.unknownRate(device: "test")) {
            try CapturePlan.make(for: Self.sensor(rate: nil), rate: nil, batching: .latency(seconds: 1), hasPollDescriptor: true)
        }
        #expect(throws: CapturePlanError.invalidBatch(0)) {
            try CapturePlan.make(for: Self.sensor(), rate: nil, batching: .samples(0), hasPollDescriptor: true)
        }
        #expect(throws: CapturePlanError.invalidRate(-1)) {
            try CapturePlan.make(for: Self.sensor(), rate: -1, batching: .none, hasPollDescriptor: true)
        }
    }
}

struct AttributeTextTests {
    @Test func parsesAvailableLists() {
        #expect(AttributeText.frequencies("12.500000 26.000000 52.000000\n") == [12.5, 26, 52])
        #expect(AttributeText.frequencies("[10 10 50]") == [10, 20, 30, 40, 50])
        #expect(AttributeText.frequencies("") == [])
        #expect(AttributeText.frequencies("abc 5 5 -1 0") == [5])
        #expect(AttributeText.double(" 0.009806650\n") == 0.00980665)
        #expect(AttributeText.double("nan") == nil)
        #expect(AttributeText.int("1365") == 1365 && AttributeText.int("2.0") == 2 && AttributeText.int("x") == nil)
        #expect(AttributeText.bool("1") == true && AttributeText.bool("0\n") == false && AttributeText.bool("maybe") == nil)
    }

    /// The thread's switches are the kernel's `/proc/thread-self/status` counters (the oracle),
    /// and a sleep adds a voluntary one.
    @Test func readsThreadCounters() throws {
        func status() throws -> Int64 {
            let text = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
            return try #require(Int64(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)))
        }
        let before = try status()
        let counters = ProcessCounters.now()
        let after = try status()
        #expect(counters.voluntarySwitches >= before && counters.voluntarySwitches <= after)
        usleep(2000)
        #expect(ProcessCounters.now().voluntarySwitches > counters.voluntarySwitches)
        let now = ProcessCounters.now()
        #expect(now.voluntarySwitches >= 0 && now.userCPUNanoseconds > 0)
    }
}
