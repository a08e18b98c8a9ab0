/// Cuts the rows of a recording into blocks of whole lines: reads the byte source into a
/// ``RecordingByteBlock``, ends the block after its last `\n`, and keeps the partial line that
/// follows for the next block. Blocks come out in file order; not thread-safe (callers serialise).
final class RecordingBlockSplitter {
    /// What one call of ``fill(_:)`` produced.
    enum Raw: Equatable {
        /// `count` bytes of whole lines (the last byte is `\n`) at the start of the block.
        case lines(count: Int)
        /// The file ends with `count` bytes without a newline (a torn final line); nothing follows.
        case torn(count: Int)
        /// A line longer than the block; nothing follows.
        case tooLong
        /// The end of the file; nothing follows.
        case end
    }

    private let source: any RecordingByteSource
    private var pending: [UInt8]
    private var atEOF: Bool
    /// Set once a terminal result (`torn`, `tooLong`, `end`, or an error) was returned.
    private(set) var finished = false

    /// Continues after the bytes a ``RecordingLineBuffer`` handed over.
    init(source: any RecordingByteSource, pending: [UInt8], atEOF: Bool) {
        self.source = source
        self.pending = pending
        self.atEOF = atEOF
    }

    /// The bytes left to cut into blocks, if known (a regular file: a hint, see
    /// ``RecordingByteSource/bytesRemaining``).
    var bytesAhead: Int? {
        if finished { return 0 }
        if atEOF { return pending.count }
        return source.bytesRemaining.map { $0 + pending.count }
    }

    /// Whether the next ``fill(_:)`` is known to be the last one (the file was read to its end).
    var isAtEnd: Bool { finished || atEOF }

    /// Fills `block` with the next whole lines.
    /// - Throws: the source's read error (the splitter is then finished).
    /// - Complexity: O(block capacity).
    func fill(_ block: RecordingByteBlock) throws -> Raw {
        guard !finished else { return .end }
        block.copyIn(pending)
        var count = pending.count
        pending.removeAll(keepingCapacity: true)
        while count < block.capacity && !atEOF {
            let n: Int
            do { n = try source.read(into: block.base + count, count: block.capacity - count) } catch {
                finished = true
                throw error
            }
            if n == 0 { atEOF = true } else { count += n }
        }
        block.zeroSlack(after: count)
        if let last = block.lastNewline(in: count) {
            pending = block.bytes(from: last + 1, count: count - last - 1)
            return .lines(count: last + 1)
        }
        finished = true
        if count == 0 { return .end }
        return atEOF ? .torn(count: count) : .tooLong
    }
}
