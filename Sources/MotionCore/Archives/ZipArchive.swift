import MotionSystem

/// A zip archive (PKWARE APPNOTE 6.3: end of central directory, central directory, local headers;
/// zip64 sizes and offsets), read through random access: the central directory once, then each
/// member streamed (stored, or deflate decompressed by zlib, its CRC-32 and size checked at the
/// end: ``ZipEntrySource``). Encrypted members, other compression methods and archives split
/// over several disks are refused with a message saying so. Phone apps (Sensor Logger, phyphox)
/// export their CSV files this way.
public final class ZipArchive: RecordingArchive {
    /// One member, as the central directory describes it.
    struct Entry {
        var name: String
        var method: Int
        var flags: Int
        var crc32: UInt32
        var compressedSize: Int
        var size: Int
        var localHeaderOffset: Int
    }

    public let name: String
    public let identity: FileIdentity?
    public var members: [String] { entries.map(\.name) }

    private let bytes: any RecordingRandomAccess
    private let entries: [Entry]
    private let limits: ArchiveLimits

    /// Largest central directory read (it holds one record of about 50-100 bytes per member).
    static let maxCentralDirectory = 16 << 20

    /// Reads the central directory of the archive in `bytes`; its members are read within
    /// `limits` (``ArchiveLimits/maxRatio``).
    /// - Throws: ``RecordingError`` (with the byte offset) for what is not a readable zip archive.
    public init(bytes: any RecordingRandomAccess, name: String, identity: FileIdentity?, limits: ArchiveLimits = ArchiveLimits()) throws {
        self.bytes = bytes
        self.limits = limits
        self.name = name
        self.identity = identity
        entries = try Self.readCentralDirectory(bytes, name: name)
    }

    /// Whether `prefix` starts like a zip archive (a local file header, or the end record of an empty archive).
    public static func isZip(_ prefix: [UInt8]) -> Bool {
        prefix.count >= 4 && prefix[0] == 0x50 && prefix[1] == 0x4B
            && ((prefix[2] == 3 && prefix[3] == 4) || (prefix[2] == 5 && prefix[3] == 6))
    }

    public func open(_ member: String) throws -> any RecordingByteSource {
        guard let e = entries.first(where: { $0.name == member }) else {
            throw RecordingError(file: name, line: nil, problem: "has no member \(DiagnosticText.quoted(member))")
        }
        // Named in messages with its bytes escaped (a name is any bytes the archive holds).
        let memberName = name + "/" + DiagnosticText.escaped(e.name.utf8)
        if let problem = Self.unreadable(method: e.method, flags: e.flags) {
            throw RecordingError(file: memberName, byteOffset: e.localHeaderOffset, problem: problem)
        }
        if e.method == 8, limits.exceedsRatio(produced: e.size, compressed: e.compressedSize) {
            throw RecordingError(file: memberName, byteOffset: e.localHeaderOffset, problem: limits.ratioProblem(produced: e.size, compressed: e.compressedSize, declared: true))
        }
        guard let local = try bytes.bytes(at: e.localHeaderOffset, count: 30), Self.u32(local, 0) == 0x0403_4B50 else {
            throw RecordingError(file: name, byteOffset: e.localHeaderOffset, problem: "not a zip local file header where the central directory points (a damaged archive)")
        }
        if let problem = Self.unreadable(method: Self.u16(local, 8), flags: Self.u16(local, 6)) {
            throw RecordingError(file: memberName, byteOffset: e.localHeaderOffset, problem: problem + " (so says its local header)")
        }
        let start = e.localHeaderOffset + 30 + Self.u16(local, 26) + Self.u16(local, 28)
        guard start <= bytes.size, e.compressedSize <= bytes.size - start else {
            throw RecordingError(file: name, byteOffset: e.localHeaderOffset, problem: "member \(DiagnosticText.quoted(e.name)) extends past the end of the file (a truncated archive)")
        }
        return try ZipEntrySource(bytes: bytes, entry: e, dataOffset: start, name: memberName, identity: identity, limits: limits)
    }

    /// Names of the zip compression methods (APPNOTE 4.4.5) MotionBatch does not read.
    static let methodNames: [Int: String] = [
        1: "Shrink", 2: "Reduce (factor 1)", 3: "Reduce (factor 2)", 4: "Reduce (factor 3)", 5: "Reduce (factor 4)",
        6: "Implode", 9: "Deflate64", 10: "PKWARE DCL Implode", 12: "bzip2", 14: "LZMA", 16: "IBM z/OS CMPSC",
        18: "IBM TERSE", 19: "IBM LZ77 z", 20: "Zstandard (old id 20)", 93: "Zstandard", 94: "MP3", 95: "xz",
        96: "JPEG", 97: "WavPack", 98: "PPMd", 99: "WinZip AES encryption",
    ]

    /// Why a member with compression `method` and general-purpose `flags` cannot be read: encrypted
    /// (flag bit 0: ZipCrypto, or AES as method 99; bit 6: strong encryption), or a method other
    /// than stored (0) and deflate (8), by name. Nil when it can.
    static func unreadable(method: Int, flags: Int) -> String? {
        if method == 99 || flags & 0x41 != 0 {
            let kind = method == 99 ? "WinZip AES" : flags & 0x40 != 0 ? "PKWARE strong encryption" : "ZipCrypto, a password"
            return "is encrypted (\(kind)), which MotionBatch does not read: export or zip it again without a password, or unzip it and give the folder"
        }
        guard method == 0 || method == 8 else {
            let named = methodNames[method].map { "\($0) (zip method \(method))" } ?? "zip method \(method)"
            return "is compressed with \(named), which MotionBatch does not read (only stored and deflate): zip it again with deflate ('zip -Z deflate'), or unzip it and give the folder"
        }
        return nil
    }

    // MARK: - Central directory

    private static func readCentralDirectory(_ bytes: any RecordingRandomAccess, name: String) throws -> [Entry] {
        let size = bytes.size
        // The end record: 22 bytes plus a comment of up to 65535 bytes, at the end of the file.
        let tailLength = min(size, 22 + 65_535)
        guard tailLength >= 22, let tail = try bytes.bytes(at: size - tailLength, count: tailLength) else {
            throw RecordingError(file: name, byteOffset: 0, problem: "not a zip archive (too short for its end record)")
        }
        var eocd = -1
        var i = tail.count - 22
        while i >= 0 {
            if u32(tail, i) == 0x0605_4B50 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else {
            throw RecordingError(file: name, byteOffset: size, problem: "not a zip archive, or a truncated one (no end of central directory record)")
        }
        let eocdOffset = size - tailLength + eocd
        var disk = u16(tail, eocd + 4)
        var count = u16(tail, eocd + 10)
        var cdSize = u32(tail, eocd + 12)
        var cdOffset = u32(tail, eocd + 16)
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF {
            // zip64: a locator just before the end record points at the zip64 end record.
            guard eocdOffset >= 20, let locator = try bytes.bytes(at: eocdOffset - 20, count: 20), u32(locator, 0) == 0x0706_4B50,
                  let recordOffset = Int(exactly: u64(locator, 8)), let record = try bytes.bytes(at: recordOffset, count: 56),
                  u32(record, 0) == 0x0606_4B50 else {
                throw RecordingError(file: name, byteOffset: eocdOffset, problem: "zip64 end of central directory record missing or damaged")
            }
            disk = Int(u32(record, 16))
            guard let c = Int(exactly: u64(record, 32)), let s = Int(exactly: u64(record, 40)), let o = Int(exactly: u64(record, 48)) else {
                throw RecordingError(file: name, byteOffset: recordOffset, problem: "zip64 sizes out of range")
            }
            count = c
            cdSize = s
            cdOffset = o
        }
        guard disk == 0 else {
            throw RecordingError(file: name, byteOffset: eocdOffset, problem: "is one part of a multi-disk (split) archive (not supported)")
        }
        guard cdSize <= maxCentralDirectory, cdOffset <= size, cdSize <= size - cdOffset else {
            throw RecordingError(file: name, byteOffset: eocdOffset, problem: "central directory of \(cdSize) bytes at offset \(cdOffset) does not fit in the file (a truncated or damaged archive)")
        }
        guard let cd = try bytes.bytes(at: cdOffset, count: cdSize) else {
            throw RecordingError(file: name, byteOffset: cdOffset, problem: "cannot read the central directory")
        }
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= cd.count, u32(cd, p) == 0x0201_4B50 else {
                throw RecordingError(file: name, byteOffset: cdOffset + p, problem: "damaged central directory (record \(entries.count + 1) of \(count))")
            }
            let nameLength = u16(cd, p + 28), extraLength = u16(cd, p + 30), commentLength = u16(cd, p + 32)
            let next = p + 46 + nameLength + extraLength + commentLength
            guard next <= cd.count else {
                throw RecordingError(file: name, byteOffset: cdOffset + p, problem: "damaged central directory (record \(entries.count + 1) runs past its end)")
            }
            let nameBytes = cd[(p + 46)..<(p + 46 + nameLength)]
            var e = Entry(name: String(decoding: nameBytes, as: UTF8.self), method: u16(cd, p + 10), flags: u16(cd, p + 8),
                          crc32: UInt32(u32(cd, p + 16)), compressedSize: u32(cd, p + 20), size: u32(cd, p + 24),
                          localHeaderOffset: u32(cd, p + 42))
            // zip64 extra field: the 64-bit values of the fields set to 0xFFFFFFFF, in this order.
            var x = p + 46 + nameLength
            let extraEnd = x + extraLength
            while x + 4 <= extraEnd {
                let id = u16(cd, x), length = u16(cd, x + 2)
                guard x + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var f = x + 4
                    func next64() -> Int? {
                        guard f + 8 <= x + 4 + length, let v = Int(exactly: u64(cd, f)) else { return nil }
                        f += 8
                        return v
                    }
                    if e.size == 0xFFFF_FFFF { e.size = next64() ?? -1 }
                    if e.compressedSize == 0xFFFF_FFFF { e.compressedSize = next64() ?? -1 }
                    if e.localHeaderOffset == 0xFFFF_FFFF { e.localHeaderOffset = next64() ?? -1 }
                }
                x += 4 + length
            }
            guard e.size >= 0, e.compressedSize >= 0, e.localHeaderOffset >= 0, e.localHeaderOffset < size else {
                throw RecordingError(file: name, byteOffset: cdOffset + p, problem: "member \(DiagnosticText.quoted(e.name)): sizes or offset out of range")
            }
            if !e.name.hasSuffix("/") { entries.append(e) }  // folders hold nothing to read
            p = next
        }
        return entries
    }

    // MARK: - Little-endian fields

    static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}

/// One member of a ``ZipArchive``, streamed: stored bytes copied, deflate data decompressed by
/// zlib; at the end the CRC-32 and the size are compared with the central directory's.
final class ZipEntrySource: RecordingByteSource {
    let name: String
    let identity: FileIdentity?
    var bytesRemaining: Int? { entry.size - produced }

    private let bytes: any RecordingRandomAccess
    private let entry: ZipArchive.Entry
    private let dataOffset: Int
    private let inflater: ZlibInflater?
    private var input = [UInt8](repeating: 0, count: 1 << 16)
    private var inputStart = 0
    private var inputEnd = 0
    private var compressedRead = 0
    private var produced = 0
    private var crc: UInt32 = 0
    private var ended = false

    private let limits: ArchiveLimits

    init(bytes: any RecordingRandomAccess, entry: ZipArchive.Entry, dataOffset: Int, name: String, identity: FileIdentity?, limits: ArchiveLimits) throws {
        self.limits = limits
        self.bytes = bytes
        self.entry = entry
        self.dataOffset = dataOffset
        self.name = name
        self.identity = identity
        if entry.method == 8 {
            do { inflater = try ZlibInflater(format: .rawDeflate) } catch {
                throw RecordingError(file: name, byteOffset: dataOffset, problem: "cannot start decompression: \(error.message)")
            }
        } else {
            inflater = nil
        }
    }

    /// An error met after some data was produced: reported by the next read, after that data (so
    /// that where it appears does not depend on the reader's buffer size).
    private var pending: RecordingError?

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if let pending { throw pending }
        guard count > 0, !ended else { return 0 }
        var n = 0
        if let inflater {
            while n == 0 {
                if inputStart == inputEnd {
                    let want = min(input.count, entry.compressedSize - compressedRead)
                    inputStart = 0
                    inputEnd = want > 0 ? try input.withUnsafeMutableBytes { b in try bytes.read(into: b.baseAddress!, count: want, at: dataOffset + compressedRead) } : 0
                    compressedRead += inputEnd
                }
                let step: ZlibInflater.Step
                do {
                    step = try input.withUnsafeBytes { all in
                        try inflater.inflate(input: UnsafeRawBufferPointer(rebasing: all[inputStart..<inputEnd]), output: UnsafeMutableRawBufferPointer(start: buffer, count: count))
                    }
                } catch let e as ZlibInflater.Failure {
                    inputStart += e.consumed
                    let error = RecordingError(file: name, byteOffset: dataOffset + compressedRead - (inputEnd - inputStart),
                                               problem: "corrupt compressed data (zlib: \(DiagnosticText.escaped(e.message.utf8, limit: 80)))")
                    guard e.produced > 0 else { throw error }
                    pending = error
                    return try deliver(buffer, e.produced)
                }
                inputStart += step.consumed
                n = step.produced
                let consumed = compressedRead - (inputEnd - inputStart)
                if limits.exceedsRatio(produced: produced + n, compressed: consumed) {
                    throw RecordingError(file: name, byteOffset: dataOffset + consumed, problem: limits.ratioProblem(produced: produced + n, compressed: consumed))
                }
                if step.streamEnded { ended = true; break }
                if n == 0 && step.consumed == 0 && inputStart == inputEnd && compressedRead >= entry.compressedSize {
                    throw RecordingError(file: name, byteOffset: dataOffset + compressedRead, problem: "the compressed data ends early (a truncated archive)")
                }
            }
        } else {
            let want = min(count, entry.size - produced)
            if want > 0 { n = try bytes.read(into: buffer, count: want, at: dataOffset + produced) }
            if n == 0 { ended = true }
        }
        if n > 0 {
            crc = ZlibInflater.crc32(crc, UnsafeRawBufferPointer(start: buffer, count: n))
            produced += n
            guard produced <= entry.size else {
                throw RecordingError(file: name, byteOffset: dataOffset, problem: "holds more than the \(entry.size) bytes its directory entry says (a damaged archive)")
            }
        }
        if ended || produced == entry.size && inflater == nil {
            ended = true
            var problem: String?
            if produced != entry.size {
                problem = "holds \(produced) bytes, its directory entry says \(entry.size) (a damaged archive)"
            } else if crc != entry.crc32 {
                problem = "CRC-32 mismatch (a damaged archive)"
            }
            if let problem {
                // After the data it checks: reported by the next read when this one delivers some.
                let error = RecordingError(file: name, byteOffset: dataOffset, problem: problem)
                guard n > 0 else { throw error }
                pending = error
            }
        }
        return n
    }

    /// Counts `n` bytes of `buffer` (produced before a failure) into the checksum and size.
    private func deliver(_ buffer: UnsafeMutableRawPointer, _ n: Int) throws -> Int {
        crc = ZlibInflater.crc32(crc, UnsafeRawBufferPointer(start: buffer, count: n))
        produced += n
        guard produced <= entry.size else {
            throw RecordingError(file: name, byteOffset: dataOffset, problem: "holds more than the \(entry.size) bytes its directory entry says (a damaged archive)")
        }
        return n
    }
}
