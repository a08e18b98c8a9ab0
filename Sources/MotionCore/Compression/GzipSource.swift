import MotionSystem

/// A gzip-compressed byte source, decompressed as it is read (streamed: memory is two fixed
/// buffers whatever the file's size), for every dialect: ``RecordingReader`` wraps its input in one
/// when the first bytes are gzip's magic number (`1f 8b`) and recognises the dialect from the
/// decompressed bytes. Concatenated gzip members (as `cat a.gz b.gz` makes) are read one after
/// the other; zlib checks each member's CRC-32 and length.
///
/// Corrupt or truncated data is a ``RecordingError`` naming the file, the line and column of the
/// decompressed text where the data stopped making sense, and the compressed byte offset.
final class GzipSource: RecordingByteSource {
    let name: String
    var identity: FileIdentity? { inner.identity }
    /// Unknown until the end (the compressed size says little about the decompressed one).
    var bytesRemaining: Int? { nil }

    /// Compressed bytes consumed so far, including the `prefix` (for progress against the file size).
    private(set) var compressedBytesRead = 0

    private let inner: any RecordingByteSource
    private let inflater: ZlibInflater
    private var input: [UInt8]
    private var inputStart = 0
    private var inputEnd: Int
    private var innerAtEnd = false
    private var memberEnded = false
    private var finished = false
    /// An error met after some data was produced: reported by the next read, after that data.
    private var pending: RecordingError?
    /// Decompressed position, for messages: newlines produced and bytes since the last one.
    private var lines = 0
    private var column = 0
    /// Decompressed bytes produced so far (for the ratio bound).
    private var produced = 0
    private let limits: ArchiveLimits

    /// Size of the compressed-input buffer.
    static let inputBufferSize = 1 << 16

    /// Decompresses `inner`, whose first bytes `prefix` were already read from it, refusing a
    /// stream that expands past `limits.maxRatio` (``ArchiveLimits``).
    /// - Throws: ``RecordingError`` when zlib cannot start.
    init(inner: any RecordingByteSource, prefix: [UInt8], limits: ArchiveLimits = ArchiveLimits()) throws {
        self.inner = inner
        self.limits = limits
        name = inner.name
        do { inflater = try ZlibInflater(format: .gzip) } catch {
            throw RecordingError(file: inner.name, line: 1, column: 1, problem: "cannot start gzip decompression: \(error.message)")
        }
        input = [UInt8](repeating: 0, count: max(Self.inputBufferSize, prefix.count))
        input.replaceSubrange(0..<prefix.count, with: prefix)
        inputEnd = prefix.count
    }

    /// Whether `prefix` starts with gzip's magic number.
    static func isGzip(_ prefix: [UInt8]) -> Bool { prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard count > 0 else { return 0 }
        if let pending { throw pending }
        while !finished {
            if memberEnded {
                if inputStart == inputEnd { try fill() }
                if inputStart == inputEnd {
                    finished = true
                    break
                }
                inflater.reset()  // another member follows
                memberEnded = false
            }
            if inputStart == inputEnd && !innerAtEnd { try fill() }
            let step: ZlibInflater.Step
            do {
                step = try input.withUnsafeBytes { all in
                    try inflater.inflate(input: UnsafeRawBufferPointer(rebasing: all[inputStart..<inputEnd]),
                                         output: UnsafeMutableRawBufferPointer(start: buffer, count: count))
                }
            } catch let error as ZlibInflater.Failure {
                inputStart += error.consumed
                compressedBytesRead += error.consumed
                advancePosition(UnsafeRawBufferPointer(start: buffer, count: error.produced))
                let e = failure(Self.problem(zlibMessage: error.message))
                guard error.produced > 0 else { throw e }
                pending = e
                return error.produced
            }
            inputStart += step.consumed
            compressedBytesRead += step.consumed
            if step.streamEnded { memberEnded = true }
            if step.produced > 0 {
                advancePosition(UnsafeRawBufferPointer(start: buffer, count: step.produced))
                produced += step.produced
                if limits.exceedsRatio(produced: produced, compressed: compressedBytesRead) {
                    throw RecordingError(file: name, line: lines + 1, column: column + 1, problem: limits.ratioProblem(produced: produced, compressed: compressedBytesRead))
                }
                return step.produced
            }
            if !step.streamEnded && step.consumed == 0 && inputStart == inputEnd && innerAtEnd {
                throw failure("the gzip data ends early (a truncated or incomplete .gz file)")
            }
        }
        return 0
    }

    /// The problem for zlib's `message`, in MotionBatch's words where zlib's are obscure (its
    /// trailer checks: "incorrect data check" is the CRC-32, "incorrect length check" the size).
    static func problem(zlibMessage message: String) -> String {
        switch message {
        case "incorrect data check":
            return "the CRC-32 in the gzip trailer does not match the decompressed data (a damaged .gz file)"
        case "incorrect length check":
            return "the length in the gzip trailer does not match the decompressed data (a damaged or truncated .gz file)"
        default:
            return "corrupt gzip data (zlib: \(DiagnosticText.escaped(message.utf8, limit: 80)))"
        }
    }

    /// Refills the compressed-input buffer from the inner source.
    private func fill() throws {
        if inputStart > 0 {
            input.withUnsafeMutableBytes { b in
                let n = inputEnd - inputStart
                if n > 0 { b.baseAddress!.copyMemory(from: b.baseAddress! + inputStart, byteCount: n) }
            }
            inputEnd -= inputStart
            inputStart = 0
        }
        guard !innerAtEnd, inputEnd < input.count else { return }
        let n = try input.withUnsafeMutableBytes { b in try inner.read(into: b.baseAddress! + inputEnd, count: b.count - inputEnd) }
        if n == 0 { innerAtEnd = true } else { inputEnd += n }
    }

    private func advancePosition(_ bytes: UnsafeRawBufferPointer) {
        for b in bytes {
            if b == 0x0A { lines += 1; column = 0 } else { column += 1 }
        }
    }

    private func failure(_ problem: String) -> RecordingError {
        RecordingError(file: name, line: lines + 1, column: column + 1,
                       problem: "\(problem) at compressed byte \(compressedBytesRead)")
    }
}
