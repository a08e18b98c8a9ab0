import MotionCore
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for an IIO accelerometer and its kernel buffer, so that the capture's whole
/// per-wake-up path can be measured without hardware (`motionbatch capture benchmark`).
///
/// An ``IIOCapture`` created with ``IIOCapture/init(simulating:options:)`` runs its real driver
/// code — the ``CaptureMachine``, the `poll` on the buffers, the signal pipe and the timer, the
/// drain and its decode, the deliveries to the sink with the process counters, the scale re-read —
/// except at the seams where it touches the device:
/// - **the buffer**: a pipe stands in for `/dev/iio:deviceN` (its read end is the polled
///   descriptor); a refill is one non-blocking `read(2)` of up to the buffer's capacity, as
///   libiio's local backend does, into memory the simulated buffer owns. The device writes the
///   next scans into the pipe when the reader has taken the last ones: at batch 1 a chunk of 64
///   scans (each wake-up reads one, the next `poll` returns at once), at batch N one batch after
///   the drain's refill that found the pipe empty (one wake-up per batch, as a hardware FIFO).
/// - **the attributes**: the device's description is libiio's XML backend (structure only) and
///   its values a table (as in discovery's tests); configuration writes are skipped.
/// - **the clock**: the capture's monotonic time is the simulated device's (the newest scan read),
///   so work due once per second (process counters, the scale re-read, checkpoints, the live view)
///   comes once per 100 scans at 100 Hz, as in a real capture, however fast the benchmark runs.
///
/// The scans are a hid-sensor `accel_3d`'s (3 x `le:s32/32>>0` + `le:s64/64>>0` timestamp, 24
/// bytes, scale 0.00980665), a walking-like signal (1.8 steps per second) repeated every 10 s.
/// A measurement window (``window``) records the allocation counter (``MotionSystem/AllocationCounter``)
/// and the thread's CPU time at the read that ends the warm-up and at the one that ends the window.
public final class SimulatedDevice {
    /// The device's description (libiio's XML backend).
    public let context: IIOContext
    /// The device as discovery describes it.
    public let sensor: SensorDescription
    /// Attribute values (discovery's table form, `iio:device0/in_accel_scale`).
    public let values: [String: String]
    /// The sampling rate, Hz.
    public let rateHz: Double
    /// The sampling period, ns.
    public let period: Int64
    /// The timestamp of the first scan (the real monotonic clock when the device was created), ns.
    public let start: Int64
    /// Scans handed to the reader so far.
    @exclusivity(unchecked) public private(set) var scansRead = 0
    /// Scans written into the buffer's pipe so far.
    @exclusivity(unchecked) public private(set) var scansProduced = 0
    /// Refills that returned data.
    @exclusivity(unchecked) public private(set) var readsWithData = 0
    /// The measurement window: set before the capture runs.
    @exclusivity(unchecked) public var window: Window

    /// A window of the run, in refills that return data (one per wake-up here).
    public struct Window: Sendable {
        /// Reads with data before the window starts (the warm-up).
        public var warmupReads: Int
        /// Reads with data in the window.
        public var reads: Int
        /// At the window's first and last read: allocation counts (nil without the shim), thread
        /// CPU time (ns) and scans read so far.
        public var startCounts: AllocationCounter.Counts?
        /// See ``startCounts``.
        public var endCounts: AllocationCounter.Counts?
        /// See ``startCounts``.
        public var startCPU: Int64 = 0
        /// See ``startCounts``.
        public var endCPU: Int64 = 0
        /// See ``startCounts``.
        public var startScans = 0
        /// See ``startCounts``.
        public var endScans = 0
        /// Whether the window was read to its end.
        public var complete = false

        /// A window of `reads` reads after `warmupReads`.
        public init(warmupReads: Int, reads: Int) {
            self.warmupReads = warmupReads
            self.reads = reads
        }

        /// Allocations (`malloc`, `calloc`, `realloc`) in the window, nil without the shim.
        public var allocations: UInt64? {
            guard let a = startCounts, let b = endCounts else { return nil }
            let d = b.since(a)
            return d.allocations + d.reallocations
        }
    }

    /// The scans of one 10 s cycle, without timestamps (the timestamp is written per scan).
    private let cycle: [UInt8]
    private let cycleScans: Int

    /// The hid-sensor accel_3d's scan layout (24 bytes).
    public static let scanBytes = 24
    /// The scale the simulated device reports (m/s² per raw unit).
    public static let scale = 0.00980665

    /// Creates the device.
    /// - Throws: ``MotionSystem/SystemError`` when libiio cannot parse the description.
    public init(rateHz: Double = 100, window: Window = Window(warmupReads: 0, reads: 0)) throws(SystemError) {
        precondition(rateHz > 0 && rateHz <= 10_000, "0 < rate <= 10 kHz")
        self.rateHz = rateHz
        self.window = window
        period = Int64((1e9 / rateHz).rounded())
        let rate = rateHz.compactText
        values = [
            "iio:device0/in_accel_scale": "0.009806650",
            "iio:device0/in_accel_offset": "0",
            "iio:device0/in_accel_sampling_frequency": rate,
            "iio:device0/in_accel_hysteresis": "0",
            "iio:device0/current_timestamp_clock": "monotonic\n",
            "iio:device0/buffer/hwfifo_timeout": "0.000000",
            "iio:device0/buffer/hwfifo_enabled": "0",
        ]
        context = try IIOContext(xml: Self.description)
        guard let s = SensorDiscovery.discover(in: context, values: .table(values)).first else {
            throw SystemError(.noEntry, call: "iio_create_xml_context_mem", subject: "simulated accel_3d", message: "no motion device in the description")
        }
        sensor = s
        start = MonotonicClock.nanoseconds()
        // 10 s of a walking-like signal: gravity on z, 1.8 Hz vertical bounce, 0.9 Hz sway.
        let n = max(1, Int((10 * rateHz).rounded()))
        var bytes = [UInt8](repeating: 0, count: n * Self.scanBytes)
        for i in 0..<n {
            let t = Double(i) / rateHz
            let step = 2 * Double.pi * 1.8 * t
            let values = [1.2 * sin(2 * Double.pi * 0.9 * t), 0.6 * cos(step), 9.81 + 3.0 * sin(step) + 0.4 * sin(3 * step)]
            for (axis, v) in values.enumerated() {
                let raw = Int32((v / Self.scale).rounded())
                withUnsafeBytes(of: raw.littleEndian) { r in
                    for k in 0..<4 { bytes[i * Self.scanBytes + axis * 4 + k] = r[k] }
                }
            }
        }
        cycle = bytes
        cycleScans = n
    }

    /// The capture's monotonic time: just after the newest scan read (the device's clock).
    var now: Int64 { start + Int64(max(0, scansRead - 1)) * period + 1000 }

    /// Writes scans `scansProduced ..< scansProduced + count` into `out` (count x 24 bytes).
    func produce(_ count: Int, into out: UnsafeMutableRawBufferPointer) {
        cycle.withUnsafeBytes { source in
            for k in 0..<count {
                let i = scansProduced + k
                let dst = out.baseAddress! + k * Self.scanBytes
                dst.copyMemory(from: source.baseAddress! + (i % cycleScans) * Self.scanBytes, byteCount: 16)
                dst.storeBytes(of: (start + Int64(i) * period).littleEndian, toByteOffset: 16, as: Int64.self)
            }
        }
        scansProduced += count
    }

    /// Notes a refill that returned `scans` scans (the window's marks are taken here).
    func didRead(_ scans: Int) {
        scansRead += scans
        readsWithData += 1
        if readsWithData == window.warmupReads + 1 {
            window.startCounts = AllocationCounter.read()
            window.startCPU = MonotonicClock.threadCPUNanoseconds()
            window.startScans = scansRead
        } else if readsWithData == window.warmupReads + 1 + window.reads {
            window.endCounts = AllocationCounter.read()
            window.endCPU = MonotonicClock.threadCPUNanoseconds()
            window.endScans = scansRead
            window.complete = true
        }
    }

    /// libiio's XML for a hid-sensor accel_3d (as `iio_info -x` writes it), the one device.
    static let description: String = {
        func axis(_ a: String, _ index: Int) -> String {
            var s = "<channel id=\"accel_\(a)\" type=\"input\"><scan-element index=\"\(index)\" format=\"le:s32/32&gt;&gt;0\"/>"
            s += "<attribute name=\"raw\" filename=\"in_accel_\(a)_raw\"/>"
            for attr in ["scale", "offset", "sampling_frequency", "hysteresis"] { s += "<attribute name=\"\(attr)\" filename=\"in_accel_\(attr)\"/>" }
            return s + "</channel>"
        }
        return """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE context [<!ELEMENT context (device | context-attribute)*><!ELEMENT context-attribute EMPTY><!ELEMENT device (channel | attribute | debug-attribute | buffer-attribute)*><!ELEMENT channel (scan-element?, attribute*)><!ELEMENT attribute EMPTY><!ELEMENT scan-element EMPTY><!ELEMENT debug-attribute EMPTY><!ELEMENT buffer-attribute EMPTY><!ATTLIST context name CDATA #REQUIRED description CDATA #IMPLIED><!ATTLIST context-attribute name CDATA #REQUIRED value CDATA #REQUIRED><!ATTLIST device id CDATA #REQUIRED name CDATA #IMPLIED label CDATA #IMPLIED><!ATTLIST channel id CDATA #REQUIRED type (input|output) #REQUIRED name CDATA #IMPLIED><!ATTLIST scan-element index CDATA #REQUIRED format CDATA #REQUIRED scale CDATA #IMPLIED><!ATTLIST attribute name CDATA #REQUIRED filename CDATA #IMPLIED value CDATA #IMPLIED><!ATTLIST debug-attribute name CDATA #REQUIRED value CDATA #IMPLIED><!ATTLIST buffer-attribute name CDATA #REQUIRED value CDATA #IMPLIED>]>
        <context name="xml" description="simulated hid sensor hub">
        <device id="iio:device0" name="accel_3d">
        \(axis("x", 0))\(axis("y", 1))\(axis("z", 2))
        <channel id="timestamp" type="input"><scan-element index="3" format="le:s64/64&gt;&gt;0"/></channel>
        <attribute name="current_timestamp_clock"/>
        <buffer-attribute name="length"/><buffer-attribute name="enable"/><buffer-attribute name="watermark"/>
        <buffer-attribute name="hwfifo_timeout"/><buffer-attribute name="hwfifo_enabled"/>
        </device>
        </context>
        """
    }()
}

/// The simulated device's buffer: a pipe standing in for the character device (see
/// ``SimulatedDevice``). One per stream, created when the capture creates its buffers.
final class SimulatedBuffer {
    let device: SimulatedDevice
    /// Scans per refill (the plan's buffer capacity).
    let capacity: Int
    /// Bytes per scan.
    var step: Int { SimulatedDevice.scanBytes }
    private let pipe: PipePair
    /// The last refill's bytes (libiio's buffer memory).
    private let memory: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var length = 0
    /// Scans written per production, and the memory they are written from.
    private let chunk: Int
    private let staging: UnsafeMutableRawBufferPointer
    /// Bytes in the pipe.
    @exclusivity(unchecked) private var queued = 0
    @exclusivity(unchecked) private var destroyed = false

    init(device: SimulatedDevice, capacity: Int) throws(SystemError) {
        self.device = device
        self.capacity = capacity
        chunk = capacity > 1 ? capacity : 64
        pipe = try PipePair(capacity: chunk * SimulatedDevice.scanBytes)
        memory = .allocate(byteCount: capacity * SimulatedDevice.scanBytes, alignment: 16)
        staging = .allocate(byteCount: chunk * SimulatedDevice.scanBytes, alignment: 16)
        try produce()
    }

    deinit { destroy() }

    /// The descriptor the capture polls.
    var pollDescriptor: Int32 { pipe.readEnd }

    private func produce() throws(SystemError) {
        device.produce(chunk, into: staging)
        try pipe.write(UnsafeRawBufferPointer(staging))
        queued += staging.count
    }

    /// A non-blocking refill: the bytes read, nil when the pipe is empty (the device then writes
    /// the next batch, to be found by the next `poll`).
    func refillAvailable() throws(SystemError) -> Int? {
        guard !destroyed else { throw SystemError(.badFileDescriptor, call: "read", subject: "simulated buffer", message: "buffer already destroyed") }
        guard let n = try pipe.read(into: memory.baseAddress!, count: memory.count) else {
            if capacity > 1 { try produce() }
            return nil
        }
        length = n
        queued -= n
        if n > 0 { device.didRead(n / step) }
        if queued == 0, capacity == 1 { try produce() }
        return n
    }

    /// A blocking refill (not used: the simulated device has a poll descriptor).
    func refill() throws(SystemError) -> Int { try refillAvailable() ?? 0 }

    /// Calls `body` with the last refill's bytes.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: memory[0..<length]))
    }

    /// Closes the pipe and frees the memory. Idempotent.
    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        pipe.close()
        memory.deallocate()
        staging.deallocate()
    }
}
