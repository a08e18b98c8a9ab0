import CByteClass

// The byte classification the row parser reads instead of testing each field's bytes itself.
// The only file that imports the C module.
extension RecordingByteBlock {
    /// Fills ``nonDigitBitmap`` for the first `count` bytes and at least 64 bytes after them (the
    /// zeroed slack), with `cbyteclass_nondigit_bitmap` (SSE2 on x86-64, 64-bit words elsewhere).
    /// - Precondition: the slack after `count` is zeroed (``zeroSlack(after:)``).
    /// - Complexity: O(count): about 0.5 instructions per byte with SSE2.
    func classify(count: Int) {
        let words = min((count + 64 + 63) / 64, (capacity + Self.slack) / 64)
        cbyteclass_nondigit_bitmap(base, words, nonDigitBitmap)
    }

    /// A read-only view of a block's ``nonDigitBitmap`` (valid while the block lives, after
    /// ``classify(count:)``).
    struct NonDigitBitmap {
        /// The bitmap's first byte.
        let bytes: UnsafeRawPointer
        /// Bytes of the bitmap allocation (its words × 8).
        let byteCount: Int
        /// A view of `block`'s ``RecordingByteBlock/nonDigitBitmap``.
        init(_ block: RecordingByteBlock) {
            bytes = UnsafeRawPointer(block.nonDigitBitmap)
            byteCount = ((block.capacity + RecordingByteBlock.slack) / 64 + 1) * 8
        }

        /// Bits `offset ..< offset + 57` of the bitmap (bit 0 is byte `offset`): one unaligned
        /// load and a shift. Valid for offsets up to the `count` classified (asserted: the load
        /// stays inside the allocation, which has one word more than the bytes need).
        @inline(__always)
        subscript(offset: Int) -> UInt64 {
            assert(offset >= 0 && (offset >> 3) + 8 <= byteCount, "NonDigitBitmap: load outside the bitmap")
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset >> 3, as: UInt64.self)) >> UInt64(offset & 7)
        }
    }
}
