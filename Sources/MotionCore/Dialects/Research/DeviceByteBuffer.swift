/// A fixed buffer over a ``RecordingByteSource`` for the binary device readers (GT3X, CWA): the
/// bytes not yet decoded are kept at its start, the rest refilled from the source, so memory
/// stays flat whatever the file's length.
struct DeviceByteBuffer {
    private var storage: [UInt8]
    private var start = 0
    private var end = 0
    /// The source has no more bytes.
    private(set) var atEnd = false
    /// Bytes consumed from the start of the input.
    private(set) var consumed = 0

    /// A buffer of `capacity` bytes holding `prefix` first.
    init(capacity: Int, prefix: [UInt8] = []) {
        storage = [UInt8](repeating: 0, count: max(capacity, prefix.count))
        storage.replaceSubrange(0..<prefix.count, with: prefix)
        end = prefix.count
    }

    /// The longest header a device reader skips at the start (it must fit in the buffer).
    static let maxSkip = 1 << 16

    /// Bytes held, not yet consumed.
    var count: Int { end - start }

    /// Moves the held bytes to the start and reads from `source` until full or at its end.
    mutating func fill(from source: any RecordingByteSource) throws {
        if start > 0 {
            let n = end - start
            if n > 0 { storage.withUnsafeMutableBytes { b in b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: n) } }
            start = 0
            end = n
        }
        while end < storage.count && !atEnd {
            let n = try storage.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress! + end, count: b.count - end) }
            if n == 0 { atEnd = true } else { end += n }
        }
    }

    /// Calls `body` with the held bytes; it returns how many it consumed.
    mutating func consume(_ body: (UnsafeRawBufferPointer) throws -> Int) rethrows {
        var none: Void = ()
        try consume(with: &none) { b, _ in try body(b) }
    }

    /// As ``consume(_:)``, `body` also given `state` to modify (a decoder stored beside the
    /// buffer, passed without a closure capturing their owner).
    mutating func consume<State>(with state: inout State, _ body: (UnsafeRawBufferPointer, inout State) throws -> Int) rethrows {
        let (s, e) = (start, end)
        let used = try storage.withUnsafeBytes { b in try body(UnsafeRawBufferPointer(rebasing: b[s..<e]), &state) }
        precondition(used >= 0 && used <= e - s)
        start += used
        consumed += used
    }
}
