/// ActiGraph's 12-bit packing (GT3X-File-Format `Activity.md`, NHANES-GT3X-File-Format
/// `activity.bin.md`): samples of three 12-bit two's-complement values in Y, X, Z order, bits
/// most significant first, 36 bits (4.5 bytes) per sample; sample `k` starts at bit `36 k`.
enum GT3XPacked12 {
    /// Sample `k` of `bytes` as (x, y, z) counts; the caller ensures its bytes are present
    /// (`bytesNeeded(k + 1) <= bytes.count`).
    @inline(__always)
    static func sample(_ bytes: UnsafeRawBufferPointer, _ k: Int) -> (Int16, Int16, Int16) {
        let bit = 36 * k
        let y = value(bytes, bit), x = value(bytes, bit + 12), z = value(bytes, bit + 24)
        return (x, y, z)
    }

    /// The bytes holding `count` samples (the last nibble of an odd count unused).
    static func bytesNeeded(_ count: Int) -> Int { (36 * count + 7) / 8 }

    /// The 12-bit value at `bit` (a multiple of 4), sign-extended.
    @inline(__always)
    static func value(_ b: UnsafeRawBufferPointer, _ bit: Int) -> Int16 {
        let i = bit >> 3
        let u: UInt16 = bit & 7 == 0
            ? UInt16(b[i]) << 4 | UInt16(b[i + 1]) >> 4
            : (UInt16(b[i]) & 0x0F) << 8 | UInt16(b[i + 1])
        return Int16(bitPattern: u << 4) >> 4
    }
}
