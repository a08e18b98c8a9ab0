import CZlib
import Foundation
import MotionCore
import MotionSystem
import MotionTestSupport

/// Compressed inputs built at test time from a few bytes (nothing large is committed): zlib's own
/// deflate (the real library) and a minimal zip writer whose fields each test may falsify.
enum ArchiveFixtures {
    /// `unit` repeated `times` times after `head`, deflated by zlib at level 9 without holding the
    /// expanded bytes: gzip (`gzip: true`) or raw deflate (a zip member's data).
    static func deflate(head: [UInt8] = [], repeating unit: [UInt8] = [], times: Int = 0, gzip: Bool) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit2_(&stream, 9, Z_DEFLATED, gzip ? 31 : -15, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        func feed(_ bytes: [UInt8], finish: Bool) {
            var input = bytes
            input.withUnsafeMutableBufferPointer { inp in
                stream.next_in = inp.baseAddress
                stream.avail_in = UInt32(inp.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { b in
                        stream.next_out = b.baseAddress
                        stream.avail_out = UInt32(b.count)
                        _ = CZlib.deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                        out += b[0..<(b.count - Int(stream.avail_out))]
                    }
                } while stream.avail_out == 0 || (finish && stream.avail_in > 0)
            }
        }
        feed(head, finish: false)
        // Repeated in blocks of about 1 MiB, for speed.
        let perBlock = unit.isEmpty ? 0 : max(1, (1 << 20) / unit.count)
        let block = Array([[UInt8]](repeating: unit, count: min(perBlock, times)).joined())
        var left = times
        while left > 0 {
            let n = min(perBlock, left)
            feed(n == perBlock ? block : Array(block.prefix(n * unit.count)), finish: false)
            left -= n
        }
        feed([], finish: true)
        return out
    }

    /// The CRC-32 of `bytes` (zlib's).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) })
    }

    /// One zip member: its name and bytes, and how the archive describes it.
    struct Member {
        var name: String
        var data: [UInt8]
        /// 0 stored, 8 deflate (the data is deflated), anything else written as given (stored bytes).
        var method = 8
        var flags = 0
        /// Overrides of what the directory says (nil: the truth).
        var declaredSize: Int?
        var declaredCompressedSize: Int?
        /// Bytes appended after the compressed data (counted in its declared compressed size).
        var padding = 0

        init(_ name: String, _ data: [UInt8], method: Int = 8, flags: Int = 0) {
            self.name = name
            self.data = data
            self.method = method
            self.flags = flags
        }
    }

    /// A zip archive of `members`: local headers, data, central directory, end record.
    static func zip(_ members: [Member]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ to: inout [UInt8]) { to += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int, _ to: inout [UInt8]) { u16(v & 0xFFFF, &to); u16(v >> 16 & 0xFFFF, &to) }
        for m in members {
            let payload = (m.method == 8 ? deflate(head: m.data, gzip: false) : m.data) + [UInt8](repeating: 0, count: m.padding)
            let crc = Int(crc32(m.data))
            let size = m.declaredSize ?? m.data.count
            let csize = m.declaredCompressedSize ?? payload.count
            let name = Array(m.name.utf8)
            let offset = out.count
            u32(0x0403_4B50, &out); u16(20, &out); u16(m.flags, &out); u16(m.method, &out); u32(0, &out)
            u32(crc, &out); u32(csize, &out); u32(size, &out); u16(name.count, &out); u16(0, &out)
            out += name + payload
            u32(0x0201_4B50, &central); u16(20, &central); u16(20, &central); u16(m.flags, &central); u16(m.method, &central); u32(0, &central)
            u32(crc, &central); u32(csize, &central); u32(size, &central); u16(name.count, &central); u16(0, &central); u16(0, &central)
            u16(0, &central); u16(0, &central); u32(0, &central); u32(offset, &central)
            central += name
        }
        let cdOffset = out.count
        out += central
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out); u16(members.count, &out); u16(members.count, &out)
        u32(central.count, &out); u32(cdOffset, &out); u16(0, &out)
        return out
    }

    /// The files of the Sensor Logger iOS fixture (Accelerometer, Gravity, Gyroscope, Metadata).
    static func sensorLoggerIOS() throws -> [(name: String, data: [UInt8])] {
        let dir = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk/sensor-logger-ios")
        return try ["Accelerometer.csv", "Gravity.csv", "Gyroscope.csv", "Metadata.csv"].map { name in
            (name, [UInt8](try Data(contentsOf: dir.appendingPathComponent(name))))
        }
    }

    /// Reads `reader` to its end; the samples delivered.
    @discardableResult
    static func drain(_ reader: RecordingReader) throws -> Int {
        var n = 0
        while let chunk = try reader.next(maxSamples: 1 << 16) { n += chunk.samples.count }
        return n
    }

    /// The error `body` throws, as text (nil when it throws none).
    static func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch { return "\(error)" }
        return nil
    }
}

/// A stream (no random access) of `head` then `fill` repeated without end: a pipe that never closes.
final class EndlessSource: RecordingByteSource {
    let name: String
    var identity: FileIdentity? { nil }
    var bytesRemaining: Int? { nil }
    private let head: [UInt8]
    private let fill: UInt8
    private(set) var delivered = 0

    init(head: [UInt8], fill: UInt8 = 0, name: String = "standard input") {
        self.head = head
        self.fill = fill
        self.name = name
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let b = buffer.assumingMemoryBound(to: UInt8.self)
        for i in 0..<count { b[i] = delivered + i < head.count ? head[delivered + i] : fill }
        delivered += count
        return count
    }
}
