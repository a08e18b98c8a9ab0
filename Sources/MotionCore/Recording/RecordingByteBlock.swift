#if canImport(Glibc)
import Glibc
#endif

/// One block of raw recording bytes: a fixed allocation of `capacity` bytes plus slack, filled by
/// ``RecordingBlockSplitter`` with whole lines and parsed in place by ``RecordingRowParser``.
/// The only owner of its raw allocation; memory does not depend on the file's length.
final class RecordingByteBlock {
    /// Zeroed bytes allocated after `capacity`: at least ``PaddedBytes/padding`` for the number
    /// scanners' word loads past the end of the data, and 64 for the classification, without
    /// leaving the allocation.
    static let slack = 128

    /// Usable bytes (the longest line accepted, newline included).
    let capacity: Int
    /// The allocation (`capacity + slack` bytes).
    let base: UnsafeMutablePointer<UInt8>
    /// The non-digit bitmap of the bytes, filled by ``classify(count:)``: bit `i % 64` of word
    /// `i / 64` is set when byte `i` is not an ASCII digit (words in little-endian byte order). One
    /// word more than the bytes need, so that an unaligned 8-byte load at any of its bytes stays
    /// inside (see ``NonDigitBitmap``).
    let nonDigitBitmap: UnsafeMutablePointer<UInt64>

    /// Allocates a block (only the slack is initialised here; see ``zeroSlack(after:)``).
    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity + Self.slack)
        (base + capacity).initialize(repeating: 0, count: Self.slack)
        let bitmapWords = (capacity + Self.slack) / 64 + 1
        nonDigitBitmap = .allocate(capacity: bitmapWords)
        nonDigitBitmap.initialize(repeating: ~0, count: bitmapWords)
    }

    /// Zeroes the `slack` bytes after the first `count` bytes (the data just filled), so that the
    /// scanners' loads past the data read defined bytes. Cheaper than zeroing the whole block.
    func zeroSlack(after count: Int) {
        (base + count).initialize(repeating: 0, count: min(Self.slack, capacity + Self.slack - count))
    }

    /// The first `count` bytes (the data filled) as the padded view the scanners read through:
    /// the block's slack after them is at least ``PaddedBytes/padding`` bytes and zeroed
    /// (``zeroSlack(after:)``).
    func paddedBytes(count: Int) -> PaddedBytes {
        precondition(count >= 0 && count <= capacity, "paddedBytes: count beyond the block")
        assert(Self.slack >= PaddedBytes.padding)
        return PaddedBytes(start: UnsafePointer(base), end: UnsafePointer(base) + count)
    }

    deinit {
        base.deallocate()
        nonDigitBitmap.deallocate()
    }

    /// Copies `bytes` to the start of the block.
    func copyIn(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { b in
            if let p = b.baseAddress { base.update(from: p, count: b.count) }
        }
    }

    /// The `count` bytes at `offset` as an array.
    func bytes(from offset: Int, count: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + offset, count: count))
    }

    /// Offset of the last `\n` in the first `count` bytes, or nil.
    /// - Complexity: O(distance from the end), usually one line.
    func lastNewline(in count: Int) -> Int? {
        var i = count - 1
        while i >= 0 {
            if base[i] == 0x0A { return i }
            i -= 1
        }
        return nil
    }
}
