/// A window of bytes `[start, end)` that is followed by at least ``padding`` readable bytes: the
/// one owner of the guarantee that lets the number scanners load 8-byte words without a bounds
/// check or a data-dependent loop, even when a word starts a few bytes before `end`.
///
/// Every read the padded scanners make goes through ``load64(_:)`` or ``subscript(_:)``, which
/// assert (in debug builds, where the tests and the fuzzers run) that it stays inside
/// `[start, end + padding)`. Only an allocation that really has the padding may make one:
/// ``RecordingByteBlock`` (its slack is larger and zeroed after the data).
struct PaddedBytes {
    /// Bytes readable after `end`: a field scanner reads at most 32 bytes from a position not
    /// beyond `end` (24 bytes for the field, an 8-byte word at offset 24 at most).
    static let padding = 32

    /// The first byte of the window.
    let start: UnsafePointer<UInt8>
    /// One past the last byte of data; `padding` readable bytes follow.
    let end: UnsafePointer<UInt8>

    /// A view of `[start, end)`.
    /// - Precondition: `[start, end + padding)` is one readable allocation (the caller's promise;
    ///   ``RecordingByteBlock`` is the one caller).
    init(start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        precondition(start <= end, "PaddedBytes: end before start")
        self.start = start
        self.end = end
    }

    /// The 8 bytes at `p` as a little-endian word (an unaligned load).
    /// - Precondition: `start <= p` and `p + 8 <= end + padding` (asserted).
    @inline(__always)
    func load64(_ p: UnsafePointer<UInt8>) -> UInt64 {
        assert(p >= start && p + 8 <= end + Self.padding, "PaddedBytes: 8-byte load outside the padded window")
        return UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The byte at `p`.
    /// - Precondition: `start <= p < end + padding` (asserted).
    @inline(__always)
    subscript(_ p: UnsafePointer<UInt8>) -> UInt8 {
        assert(p >= start && p < end + Self.padding, "PaddedBytes: read outside the padded window")
        return p.pointee
    }
}
