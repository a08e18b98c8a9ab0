/// The storage format of one scan element, as the kernel states it in `scan_elements/*_type`:
/// `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`, e.g. `le:s12/16>>4`.
///
/// A raw value is read from `storageBits` bits in the given byte order, shifted right by
/// `shift`, masked to `bits` and sign-extended when signed. Libiio-free.
public struct ScanElementFormat: Hashable, Sendable, CustomStringConvertible {
    /// Big-endian storage (`be:`), otherwise little-endian.
    public var isBigEndian: Bool
    /// Two's-complement signed value (`s`), otherwise unsigned.
    public var isSigned: Bool
    /// Significant bits (`realbits`).
    public var bits: Int
    /// Bits of storage (8, 16, 32 or 64).
    public var storageBits: Int
    /// Right shift applied before masking.
    public var shift: Int
    /// How many values the element holds (`X2`), usually 1.
    public var repeatCount: Int

    /// Creates a format.
    public init(isBigEndian: Bool, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1) {
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Bytes of one stored value.
    public var storageBytes: Int { storageBits / 8 }

    /// Bytes the element takes in a scan (all repeats); also its alignment.
    public var length: Int { storageBytes * repeatCount }

    /// The kernel's text form, e.g. `le:s12/16>>4`.
    public var description: String {
        "\(isBigEndian ? "be" : "le"):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatCount > 1 ? "X\(repeatCount)" : "")>>\(shift)"
    }

    /// Parses the kernel's `*_type` text (case-insensitive sign letter, as `iio_info` prints `S`).
    /// - Throws: ``ScanFormatError`` naming the text and the problem.
    public init(parsing text: String) throws(ScanFormatError) {
        let t = text.trimmingWhitespace()
        let parts = t.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { throw ScanFormatError(text: text, problem: "expected 'le:' or 'be:' prefix") }
        switch parts[0].lowercased() {
        case "le": isBigEndian = false
        case "be": isBigEndian = true
        default: throw ScanFormatError(text: text, problem: "unknown endianness '\(parts[0])'")
        }
        var body = Substring(parts[1])
        guard let sign = body.first else { throw ScanFormatError(text: text, problem: "missing sign letter") }
        switch sign {
        case "s", "S": isSigned = true
        case "u", "U": isSigned = false
        default: throw ScanFormatError(text: text, problem: "sign must be 's' or 'u', got '\(sign)'")
        }
        body = body.dropFirst()
        guard let slash = body.firstIndex(of: "/"), let shiftMark = body.range(of: ">>") else {
            throw ScanFormatError(text: text, problem: "expected 'bits/storagebits>>shift'")
        }
        guard let b = Int(body[..<slash]) else { throw ScanFormatError(text: text, problem: "bad bit count") }
        var storage = body[body.index(after: slash)..<shiftMark.lowerBound]
        var repeats = 1
        if let x = storage.firstIndex(where: { $0 == "X" || $0 == "x" }) {
            guard let r = Int(storage[storage.index(after: x)...]), r >= 1 else { throw ScanFormatError(text: text, problem: "bad repeat count") }
            repeats = r
            storage = storage[..<x]
        }
        guard let sb = Int(storage) else { throw ScanFormatError(text: text, problem: "bad storage bit count") }
        guard let sh = Int(body[shiftMark.upperBound...]) else { throw ScanFormatError(text: text, problem: "bad shift") }
        guard [8, 16, 32, 64].contains(sb) else { throw ScanFormatError(text: text, problem: "storage bits must be 8, 16, 32 or 64, got \(sb)") }
        guard b >= 1, b + sh <= sb else { throw ScanFormatError(text: text, problem: "bits (\(b)) + shift (\(sh)) exceed storage (\(sb))") }
        bits = b
        storageBits = sb
        shift = sh
        repeatCount = repeats
    }
}

/// A scan format text that cannot be parsed.
public struct ScanFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var problem: String
    /// `invalid scan format 'TEXT': PROBLEM`.
    public var description: String { "invalid scan format '\(text)': \(problem)" }
}

extension Substring {
    /// The range of the first occurrence of `needle`, or nil.
    fileprivate func range(of needle: String) -> Range<Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
