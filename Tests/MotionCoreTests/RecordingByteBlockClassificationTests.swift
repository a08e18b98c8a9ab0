import CByteClass
import Testing
import MotionTestSupport
@testable import MotionCore

/// The non-digit bitmap: the SSE2 kernel, its portable twin and the block's view of it against a
/// byte-by-byte reference.
@Suite struct RecordingByteBlockClassificationTests {
    /// Random bytes, two thirds of them digits and the rest any byte value (separators, signs,
    /// letters, bytes with the high bit set), so that every kind of lane is exercised.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let r = rng.next()
            return r % 3 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : UInt8(ascii: "0") + UInt8((r >> 8) % 10)
        }
    }

    static func isNonDigit(_ b: UInt8) -> Bool { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }

    @Test(arguments: [1, 2, 3, 8, 33])
    func kernelsMatchTheReference(words: Int) {
        for seed in UInt64(1)...20 {
            let input = Self.bytes(64 * words, seed: seed &* 7919 &+ UInt64(words))
            var fast = [UInt64](repeating: 0, count: words)
            var portable = [UInt64](repeating: 0, count: words)
            cbyteclass_nondigit_bitmap(input, words, &fast)
            cbyteclass_nondigit_bitmap_portable(input, words, &portable)
            var reference = [UInt64](repeating: 0, count: words)
            for (i, b) in input.enumerated() where Self.isNonDigit(b) { reference[i / 64] |= 1 << UInt64(i % 64) }
            // Stored little-endian: on this (little-endian) host the words read back as is.
            #expect(fast == reference.map { UInt64(littleEndian: $0) })
            #expect(portable == fast)
        }
    }

    @Test func everyByteValueIsClassified() {
        let input = (0..<256).map { UInt8($0) }
        var bitmap = [UInt64](repeating: 0, count: 4)
        cbyteclass_nondigit_bitmap(input, 4, &bitmap)
        for b in 0..<256 {
            let set = bitmap[b / 64] & (1 << UInt64(b % 64)) != 0
            #expect(set == Self.isNonDigit(UInt8(b)), "byte \(b)")
        }
    }

    /// The parser reads 57-bit windows at any byte offset, including the zeroed slack after the data.
    @Test(arguments: [1, 63, 64, 65, 200, 1000])
    func blockWindowsMatchEveryOffset(count: Int) {
        let block = RecordingByteBlock(capacity: 1024)
        block.copyIn(Self.bytes(count, seed: UInt64(count)))
        block.zeroSlack(after: count)
        block.classify(count: count)
        let view = RecordingByteBlock.NonDigitBitmap(block)
        for offset in 0...count {
            var expected: UInt64 = 0
            for i in 0..<57 where Self.isNonDigit(block.base[offset + i]) { expected |= 1 << UInt64(i) }
            #expect(view[offset] & ((1 << 57) - 1) == expected, "offset \(offset)")
        }
    }
}
