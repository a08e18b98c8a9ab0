import CZlib

/// The one owner of a zlib inflate stream (`z_stream`, `inflateInit2_`, `inflate`,
/// `inflateReset`, `inflateEnd`): decompresses gzip members (``Format/gzip``) or the raw deflate
/// data of a zip entry (``Format/rawDeflate``). Its raw pointers stay inside this type; callers hand
/// it safe buffers.
final class ZlibInflater {
    /// What the compressed bytes are.
    enum Format {
        /// gzip (RFC 1952): header, deflate data, CRC-32 and size (zlib checks both).
        case gzip
        /// Raw deflate (RFC 1951), as in a zip entry (the caller checks the CRC).
        case rawDeflate

        /// zlib's `windowBits` for the format: 15 + 16 selects gzip decoding, -15 raw deflate.
        var windowBits: Int32 { self == .gzip ? 15 + 16 : -15 }
    }

    /// What one call of ``inflate(input:output:)`` did.
    struct Step {
        /// Input bytes consumed.
        var consumed: Int
        /// Output bytes produced.
        var produced: Int
        /// The compressed stream (one gzip member, or the zip entry) is complete.
        var streamEnded: Bool
    }

    /// A zlib failure: its return code and message (`z_stream.msg`).
    struct Failure: Error {
        var code: Int32
        var message: String
        /// Input consumed and output produced by the failing call before zlib stopped (the output
        /// is valid data that precedes the problem: delivered before the error is reported, so
        /// that where an error appears does not depend on the output buffer's size).
        var consumed = 0
        var produced = 0
    }

    private let stream: UnsafeMutablePointer<z_stream>

    /// Creates a stream for `format`.
    /// - Throws: ``Failure`` when zlib cannot initialise (out of memory, version mismatch).
    init(format: Format) throws(Failure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let rc = inflateInit2_(stream, format.windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            stream.deallocate()
            throw Failure(code: rc, message: "inflateInit2 failed (\(rc))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decompresses from `input` into `output`, as much as both allow.
    /// - Throws: ``Failure`` for corrupt data (`Z_DATA_ERROR`, with zlib's message) or memory
    ///   exhaustion. A call that can make no progress (no input, or no room) returns zero counts.
    func inflate(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) throws(Failure) -> Step {
        guard let outBase = output.baseAddress, output.count > 0 else { return Step(consumed: 0, produced: 0, streamEnded: false) }
        let inBase = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self)) }
        stream.pointee.next_in = inBase
        stream.pointee.avail_in = UInt32(clamping: input.count)
        stream.pointee.next_out = outBase.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = UInt32(clamping: output.count)
        let availIn = stream.pointee.avail_in
        let availOut = stream.pointee.avail_out
        let rc = CZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = Int(availIn - stream.pointee.avail_in)
        let produced = Int(availOut - stream.pointee.avail_out)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        switch rc {
        case Z_OK: return Step(consumed: consumed, produced: produced, streamEnded: false)
        case Z_STREAM_END: return Step(consumed: consumed, produced: produced, streamEnded: true)
        case Z_BUF_ERROR: return Step(consumed: consumed, produced: produced, streamEnded: false)  // no progress possible
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(rc)"
            throw Failure(code: rc, message: message, consumed: consumed, produced: produced)
        }
    }

    /// Starts a new stream of the same format (the next gzip member).
    func reset() {
        inflateReset(stream)
    }

    /// The CRC-32 (as in gzip and zip) of `bytes`, continuing `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        var c = UInt(crc)
        var p = base.assumingMemoryBound(to: UInt8.self)
        var left = bytes.count
        while left > 0 {
            let n = min(left, Int(UInt32.max))
            c = CZlib.crc32(c, p, UInt32(n))
            p += n
            left -= n
        }
        return UInt32(truncatingIfNeeded: c)
    }
}
