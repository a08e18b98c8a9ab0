/// Converts raw scans (bytes in a ``ScanLayout``) into samples in SI units:
/// value = (raw + offset) x scale for each axis, timestamp from the `timestamp` element.
/// The one place where raw IIO bytes are interpreted, by the capture (MotionIIO) and by the raw
/// buffer dialect (`iio`, ``IIOBufferDialect``); libiio-free, so it is tested from byte
/// arrays. Unsafe reads are confined to ``readRaw(_:at:format:)``.
public struct ScanDecoder: Sendable {
    /// How one axis is converted.
    public struct Axis: Hashable, Sendable {
        /// Byte offset of the element in the scan.
        public var offset: Int
        /// Storage format.
        public var format: ScanElementFormat { didSet { (rawHigh, rawLow) = Self.limits(format) } }
        /// Added to the raw value before scaling (`*_offset`, usually 0).
        public var rawOffset: Double
        /// SI units per raw unit (`*_scale`).
        public var scale: Double
        /// The largest and smallest raw values of the format: a value there is clipped. Stored
        /// (kept with ``format``): the decoder compares every value with them.
        public private(set) var rawHigh: Int64
        /// See ``rawHigh``.
        public private(set) var rawLow: Int64

        /// Creates an axis conversion.
        public init(offset: Int, format: ScanElementFormat, rawOffset: Double = 0, scale: Double) {
            self.offset = offset
            self.format = format
            self.rawOffset = rawOffset
            self.scale = scale
            (rawHigh, rawLow) = Self.limits(format)
        }

        static func limits(_ format: ScanElementFormat) -> (high: Int64, low: Int64) {
            let high = format.isSigned ? (Int64(1) << Int64(min(63, format.bits) - 1)) - 1 : (format.bits >= 63 ? Int64.max : (Int64(1) << Int64(format.bits)) - 1)
            let low = format.isSigned ? -(Int64(1) << Int64(min(63, format.bits) - 1)) : 0
            return (high, low)
        }
    }

    /// The scan layout being decoded.
    public let layout: ScanLayout
    /// X, Y, Z accelerometer axes, when present.
    public var accel: [Axis]?
    /// X, Y, Z gyroscope axes, when present.
    public var gyro: [Axis]?
    /// The timestamp element (`s64` ns), when enabled.
    public let timestamp: ScanLayout.Element?

    /// A decoder for the given layout; axis conversions are looked up by channel id
    /// (`accel_x`…, `anglvel_x`…) with scales/offsets from `conversion(id)`.
    /// - Throws: ``ScanFormatError`` when an axis is missing from the layout.
    public init(layout: ScanLayout, conversion: (String) -> (scale: Double, offset: Double)) {
        self.layout = layout
        func axes(_ prefix: String) -> [Axis]? {
            let ids = ["\(prefix)_x", "\(prefix)_y", "\(prefix)_z"]
            let found = ids.compactMap { layout.element($0) }
            guard found.count == 3 else { return nil }
            return found.map { e in
                let c = conversion(e.id)
                return Axis(offset: e.offset, format: e.format, rawOffset: c.offset, scale: c.scale)
            }
        }
        accel = axes("accel")
        gyro = axes("anglvel")
        timestamp = layout.element("timestamp")
    }

    /// Which sensors this decoder produces.
    public var sensors: SensorSet {
        var s: SensorSet = []
        if accel != nil { s.insert(.accel) }
        if gyro != nil { s.insert(.gyro) }
        return s
    }

    /// Reads one raw value: byte order, shift, mask to `bits`, sign extension.
    /// - Precondition: `offset + storageBytes <= bytes.count`.
    @inlinable
    public static func readRaw(_ bytes: UnsafeRawBufferPointer, at offset: Int, format: ScanElementFormat) -> Int64 {
        var u: UInt64
        switch format.storageBits {
        case 8: u = UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))
        case 16:
            let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            u = UInt64(format.isBigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v))
        case 32:
            let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            u = UInt64(format.isBigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v))
        default:
            let v = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            u = format.isBigEndian ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
        }
        u >>= UInt64(format.shift)
        if format.bits < 64 {
            u &= (UInt64(1) << UInt64(format.bits)) &- 1
            if format.isSigned, u & (UInt64(1) << UInt64(format.bits - 1)) != 0 {
                u |= ~((UInt64(1) << UInt64(format.bits)) &- 1)
            }
        }
        return Int64(bitPattern: u)
    }

    /// Decodes every whole scan in `bytes`, appending one sample per scan to `samples`.
    /// Scans without a timestamp element get timestamp 0 (the caller assigns arrival times).
    /// - Returns: the number of scans decoded (trailing partial scan bytes are ignored).
    /// - Complexity: O(n) in the number of scans; no allocation beyond `samples`' growth.
    @discardableResult
    public func decode(_ bytes: UnsafeRawBufferPointer, into samples: inout [Sample]) -> Int {
        var clipped = 0
        return decode(bytes, into: &samples, clipped: &clipped)
    }

    /// Decodes as ``decode(_:into:)`` and adds to `clipped` the scans with an axis at either end
    /// of its raw range (the sensor's full scale: the true value may be beyond it).
    @discardableResult
    public func decode(_ bytes: UnsafeRawBufferPointer, into samples: inout [Sample], clipped: inout Int) -> Int {
        let step = layout.scanBytes
        guard step > 0 else { return 0 }
        let n = bytes.count / step
        if samples.capacity < samples.count + n { samples.reserveCapacity(samples.count + n) }
        let t = timestamp, accel = accel, gyro = gyro
        for i in 0..<n {
            let base = i * step
            var s = Sample(timestamp: 0, accel: .zero, gyro: .zero)
            var atLimit = false
            if let t { s.timestamp = Self.readRaw(bytes, at: base + t.offset, format: t.format) }
            if let a = accel { s.accel = Self.vector(bytes, base, a, &atLimit) }
            if let g = gyro { s.gyro = Self.vector(bytes, base, g, &atLimit) }
            if atLimit { clipped += 1 }
            samples.append(s)
        }
        return n
    }

    @inline(__always)
    static func vector(_ bytes: UnsafeRawBufferPointer, _ base: Int, _ axes: [Axis], _ atLimit: inout Bool) -> Vector3 {
        @inline(__always) func v(_ a: Axis) -> Double {
            let raw = readRaw(bytes, at: base + a.offset, format: a.format)
            if raw >= a.rawHigh || raw <= a.rawLow { atLimit = true }
            return (Double(raw) + a.rawOffset) * a.scale
        }
        return Vector3(v(axes[0]), v(axes[1]), v(axes[2]))
    }
}
