#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte source into lines through one fixed-size buffer: reads chunks from it,
/// finds line ends with `memchr(3)`, and hands out each line as a pointer into the buffer.
/// Memory stays at the buffer size whatever the file length. The only owner of the raw buffer.
final class RecordingLineBuffer {
    /// One step of the line stream.
    enum Line {
        /// A complete line (without `\n`, and without a trailing `\r`), valid until the next call.
        case line(UnsafePointer<UInt8>, Int)
        /// The file ends with `count` bytes that are not terminated by a newline.
        case torn(count: Int)
        /// A line longer than the buffer.
        case tooLong
    }

    /// Bytes allocated after `capacity` (zeroed).
    static let slack = 64

    private let source: any RecordingByteSource
    private let storage: UnsafeMutablePointer<UInt8>
    /// Buffer size in bytes (the maximum line length).
    let capacity: Int
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Bytes handed out so far (consumed lines including their newlines).
    private(set) var bytesConsumed = 0

    /// Creates a line reader over `source`, starting with `prefix` (bytes already read from it,
    /// e.g. to recognise the dialect; at most `capacity`).
    init(source: any RecordingByteSource, prefix: [UInt8] = [], capacity: Int) {
        self.source = source
        precondition(prefix.count <= max(capacity, 64), "RecordingLineBuffer: prefix larger than the buffer")
        self.capacity = max(capacity, 64)
        // Header lines are only searched with memchr within the data read; the slack is kept zeroed.
        self.storage = .allocate(capacity: self.capacity + Self.slack)
        (self.storage + self.capacity).initialize(repeating: 0, count: Self.slack)
        prefix.withUnsafeBufferPointer { b in
            if let p = b.baseAddress { storage.update(from: p, count: b.count) }
        }
        end = prefix.count
    }

    deinit { storage.deallocate() }

    /// Ends line-by-line reading: the source, the bytes already read but not handed out, and
    /// whether the end of the source was reached. The reader continues block by block from there
    /// (``RecordingBlockSplitter``); this buffer must not be used afterwards.
    func handOver() -> (source: any RecordingByteSource, pending: [UInt8], atEOF: Bool) {
        let pending = Array(UnsafeBufferPointer(start: storage + start, count: end - start))
        start = end
        return (source, pending, atEOF)
    }

    /// The next line, or `nil` at the end of a file whose last line ended with a newline.
    /// - Complexity: amortised O(line length).
    @inline(__always)
    func next() throws -> Line? {
        while true {
            let available = end - start
            if available > 0, let nl = memchr(storage + start, 0x0A, available) {
                let lineStart = storage + start
                var length = nl.assumingMemoryBound(to: UInt8.self) - lineStart
                start += length + 1
                bytesConsumed += length + 1
                if length > 0 && lineStart[length - 1] == 0x0D { length -= 1 }
                return .line(UnsafePointer(lineStart), length)
            }
            if atEOF {
                guard available > 0 else { return nil }
                start = end
                bytesConsumed += available
                return .torn(count: available)
            }
            if start > 0 {
                if available > 0 { memmove(storage, storage + start, available) }
                start = 0
                end = available
            }
            if end == capacity { return .tooLong }
            let n = try source.read(into: storage + end, count: capacity - end)
            if n == 0 { atEOF = true } else { end += n }
        }
    }
}
