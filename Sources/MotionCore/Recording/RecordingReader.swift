#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// Up to N consecutive rows of a recording, as returned by ``RecordingReader/next(maxSamples:)``.
public struct RecordingChunk: Sendable, Equatable {
    /// The samples, in file order.
    public var samples: [Sample]
    /// One label per sample (`nil` where the label field is empty), or `nil` when the file has no `label` column.
    public var labels: [String?]?
    /// The event lines met with these rows (format version 2), in file order; each one's
    /// ``RecordingEvent/sampleIndex`` counts the file's rows before it (so the event comes before
    /// `samples[sampleIndex - firstSampleIndex]`, or after the last of them).
    public var events: [RecordingEvent]
    /// The index in the file of `samples[0]` (the rows delivered before this chunk).
    public var firstSampleIndex: Int

    /// Creates a chunk.
    public init(samples: [Sample], labels: [String?]?, events: [RecordingEvent] = [], firstSampleIndex: Int = 0) {
        self.samples = samples
        self.labels = labels
        self.events = events
        self.firstSampleIndex = firstSampleIndex
    }
}

/// The one entry point for reading recordings, in every dialect: streams the samples of a
/// recording, strictly.
///
/// The first bytes of the input choose the dialect (``RecordingDialect``, registered in
/// ``RecordingDialects/all``; or the one named), whose ``RecordingRowReader`` parses it. A gzip
/// input (`1f 8b`) is decompressed as it is read and its content recognised the same way; a zip
/// archive or a folder (a phone app's export: one CSV per sensor) goes to the dialect that
/// recognises the archive (``RecordingDialect/recognizes(archive:)``). MotionBatch's
/// own CSV format and the plain CSV are read in fixed-size blocks (1 MiB by default), so memory does
/// not grow with the file's length; every dialect streams. Every malformed line is a ``RecordingError`` naming the file,
/// line, column and problem: bad number, wrong column count, NaN, infinity or a value beyond
/// ``InputLimits``, a timestamp out of range or that goes backwards or repeats, an unknown format
/// version, a missing header, an unknown column. Tolerated defects (a torn final line: no trailing
/// newline, as after a power cut; in every dialect but MotionBatch's own, the timing defects of
/// ``TimestampDefectFilter``) are dropped or repaired and counted in ``warnings``. After an error the
/// reader stays failed: every later call throws the same error.
///
/// ```swift
/// let reader = try RecordingReader(path: "Recordings/walk.csv")
/// while let chunk = try reader.next(maxSamples: 4096) { ... }
/// ```
public final class RecordingReader {
    /// How the input was packed, when it was.
    public enum Container: String, Sendable {
        /// gzip-compressed (decompressed as it is read).
        case gzip
        /// A zip archive of several files.
        case zip
        /// A folder of several files.
        case folder
    }

    /// The name of the input (the path given; used in messages).
    public let path: String
    /// The dialect that reads the input.
    public let dialect: any RecordingDialect
    /// How the input was packed (gzip, zip, folder), or nil for a plain file or stream.
    public let container: Container?
    /// Dialect, columns and metadata, parsed at creation.
    public var header: RecordingHeader { rows.header }
    /// Tolerated defects met so far, one per kind and file (with their count and first lines).
    /// Once the input is exhausted, the findings of the plausibility rule
    /// (``RecordingReadOptions/plausibility``) come last.
    public var warnings: [RecordingWarning] { rows.warnings + plausibilityWarnings }
    /// The number of the last line read (1-based; header lines count).
    public var lineNumber: Int { rows.lineNumber }
    /// The identity of the file read (for refusing to write over it), nil for memory.
    public let identity: FileIdentity?
    /// Rows delivered so far.
    public private(set) var samplesDelivered = 0

    private let rows: any RecordingRowReader
    /// The plausibility rule's state, nil without a rule.
    private var plausibility: PlausibilityCheck?
    /// Its findings, once the input is exhausted.
    private var plausibilityWarnings: [RecordingWarning] = []
    /// The line of the first row (where the findings are reported).
    private var firstRowLine = 1
    private let gzip: GzipSource?
    /// The first error met; the reader stays failed (every later call throws it again).
    private var failure: (any Error)?

    /// Bytes per block (one `read(2)`, parsed as a unit): 1 MiB.
    public static let defaultBufferSize = 1 << 20

    /// Worker threads used by default: 2 on a machine with at least two processors, else 1.
    public static var defaultThreadCount: Int { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 ? 2 : 1 }

    /// Opens `path` and parses its header.
    /// - Parameters:
    ///   - bufferSize: bytes per block (one `read(2)`); also the longest line accepted.
    ///   - threads: threads that parse blocks ahead of the caller once the file turns out to be
    ///     longer than one block (1: everything on the caller's thread). Results, errors and their
    ///     order do not depend on it. Memory: about `2 × threads` parsed blocks plus one raw block per thread.
    /// - Throws: ``SystemError`` if the file cannot be opened or read; ``RecordingError``
    ///   if the header is missing or malformed.
    public convenience init(path: String, bufferSize: Int = RecordingReader.defaultBufferSize, threads: Int = RecordingReader.defaultThreadCount) throws {
        try self.init(input: .path(path), options: RecordingReadOptions(bufferSize: bufferSize, threads: threads))
    }

    /// Opens `input`, recognises its container and dialect (or uses `dialect`) and parses its header.
    /// - Parameter dialect: the dialect to read with, instead of recognising it from the content.
    /// - Throws: ``SystemError`` if the input cannot be opened or read; ``RecordingError`` if the
    ///   header is missing or malformed, or no dialect reads an archive.
    public init(input: RecordingInput, dialect: (any RecordingDialect)? = nil, options: RecordingReadOptions = RecordingReadOptions()) throws {
        if case .path(let p) = input, Directory.isDirectory(p) {
            let archive = try DirectoryArchive(path: p)
            path = p
            identity = archive.identity
            container = .folder
            gzip = nil
            (self.dialect, rows) = try Self.open(archive: archive, dialect: dialect, options: options)
            startPlausibility(options)
            return
        }
        var source = try input.open()
        path = source.name
        identity = source.identity
        // Never more than a block: the dialect reader's buffers must hold the prefix.
        let sniff = min(RecordingDialects.sniffLength, options.bufferSize)
        var prefix = try Self.readPrefix(source, limit: sniff)
        var gzip: GzipSource?
        if GzipSource.isGzip(prefix) {
            let decompressed = try GzipSource(inner: source, prefix: prefix, limits: options.limits)
            gzip = decompressed
            source = decompressed
            prefix = try Self.readPrefix(source, limit: sniff)
        }
        self.gzip = gzip
        if ZipArchive.isZip(prefix) {
            guard gzip == nil else {
                throw RecordingError(file: path, byteOffset: 0, problem: "is a zip archive inside gzip: decompress it first")
            }
            let bytes = try source.randomAccess ?? SpooledFile.copy(source, prefix: prefix, limits: options.limits)
            let archive = try ZipArchive(bytes: bytes, name: path, identity: identity, limits: options.limits)
            container = .zip
            (self.dialect, rows) = try Self.open(archive: archive, dialect: dialect, options: options)
            startPlausibility(options)
            return
        }
        container = gzip == nil ? nil : .gzip
        let chosen = dialect ?? RecordingDialects.all.first { $0.recognizes(prefix) } ?? RecordingDialects.fallback
        self.dialect = chosen
        rows = try chosen.makeReader(source: source, prefix: prefix, options: options)
        startPlausibility(options)
    }

    private func startPlausibility(_ options: RecordingReadOptions) {
        guard let rule = options.plausibility else { return }
        plausibility = PlausibilityCheck(rule: rule, declaredRateHz: header.declaredRate, hasGyro: header.sensors.contains(.gyro))
        firstRowLine = rows.lineNumber + 1
    }

    /// Feeds the plausibility rule; at the end of the input, records its findings.
    private func judge<C: RandomAccessCollection>(_ samples: C, count: Int, ended: Bool) where C.Element == Sample {
        guard plausibility != nil else { return }
        if count > 0 {
            plausibility!.add(samples)
        } else if ended, let check = plausibility {
            plausibility = nil
            let line = check.sampleCount == 0 ? max(1, rows.lineNumber) : firstRowLine
            plausibilityWarnings = check.findings.map { RecordingWarning(kind: $0.kind, file: path, line: line, message: $0.message) }
        }
    }

    /// The dialect (given, or the first that recognises `archive`) and its reader.
    private static func open(archive: any RecordingArchive, dialect: (any RecordingDialect)?, options: RecordingReadOptions) throws -> (any RecordingDialect, any RecordingRowReader) {
        let readers = RecordingDialects.all.filter { $0.recognizes(archive: archive) }
        guard let chosen = dialect ?? readers.first else {
            if let unreadable = archive.firstUnreadableRecording() { throw unreadable }
            let shown = archive.members.prefix(12).map { DiagnosticText.quoted($0) }.joined(separator: ", ")
            throw RecordingError(file: archive.name, line: nil,
                                 problem: "holds no recording MotionBatch knows (a Sensor Logger or phyphox export; found \(archive.members.isEmpty ? "no files" : shown + (archive.members.count > 12 ? ", ..." : "")))")
        }
        return (chosen, try chosen.makeReader(archive: archive, options: options))
    }

    deinit { rows.stop() }

    /// Up to `limit` bytes from the start of `source`. A read that fails after some bytes came
    /// ends the prefix there: the error is the source's to report again at the next read, after
    /// the dialect has read those bytes (a decompressor reports a corrupt stream after the data
    /// before it), so that which error comes first never depends on how much was sniffed.
    static func readPrefix(_ source: any RecordingByteSource, limit: Int) throws -> [UInt8] {
        var prefix = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < prefix.count {
            let n: Int
            do {
                n = try prefix.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress! + count, count: b.count - count) }
            } catch where count > 0 {
                break
            }
            if n == 0 { break }
            count += n
        }
        prefix.removeLast(prefix.count - count)
        return prefix
    }

    /// Reads the next chunk of at most `maxSamples` rows, with the event lines met among them.
    ///
    /// When `maxSamples` is at least a parsed block's row count (about 11 000 rows per MiB of
    /// accel + gyro rows), whole blocks are handed over as parsed, without copying their samples.
    /// A chunk may hold events and no rows (event lines after the last row).
    /// - Returns: `nil` once the file is exhausted.
    /// - Throws: ``RecordingError`` at the first malformed line (rows before it in the same chunk
    ///   are discarded; the reader then stays failed); ``SystemError`` on read failure.
    /// - Complexity: O(bytes read).
    public func next(maxSamples: Int = 4096) throws -> RecordingChunk? {
        let first = samplesDelivered
        if var whole = try failingOnce({ try rows.takeWholeChunk(maxSamples: maxSamples) }) {
            whole.firstSampleIndex = first
            samplesDelivered += whole.samples.count
            judge(whole.samples, count: whole.samples.count, ended: false)
            return whole
        }
        var samples: [Sample] = []
        samples.reserveCapacity(min(max(maxSamples, 1), 1 << 16))
        var labels: [String?] = []
        var events: [RecordingEvent] = []
        let n = try read(into: &samples, labels: &labels, events: &events, maxSamples: maxSamples)
        guard n > 0 || !events.isEmpty else { return nil }
        return RecordingChunk(samples: samples, labels: header.hasLabels ? labels : nil, events: events, firstSampleIndex: first)
    }

    /// Appends up to `maxSamples` rows to `samples` (and, when the file has labels, their labels to
    /// `labels`), reusing the callers' storage; event lines are skipped (use
    /// ``read(into:labels:events:maxSamples:)`` to get them). When a bad line is met, the rows
    /// before it in this call are already appended and the error is thrown; the reader then stays failed.
    /// - Returns: the number of rows appended; 0 once the file is exhausted.
    /// - Throws: ``RecordingError`` at the first malformed line; ``SystemError`` on read failure.
    /// - Complexity: O(bytes read).
    public func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        var skipped: [RecordingEvent] = []
        return try read(into: &samples, labels: &labels, events: &skipped, maxSamples: maxSamples)
    }

    /// As ``read(into:labels:maxSamples:)``, also appending the event lines met (format version 2)
    /// to `events`, each with its ``RecordingEvent/sampleIndex`` (rows of the file before it).
    /// Events after the last row come with a call that appends no rows.
    public func read(into samples: inout [Sample], labels: inout [String?], events: inout [RecordingEvent], maxSamples: Int) throws -> Int {
        let start = samples.count
        let n = try failingOnce { try rows.read(into: &samples, labels: &labels, events: &events, maxSamples: maxSamples) }
        samplesDelivered += n
        judge(samples[start...], count: n, ended: n == 0 && maxSamples > 0)
        return n
    }

    /// Runs `body` unless the reader already failed (then rethrows that failure); the first error
    /// `body` throws is kept, the dialect reader is stopped, and every later call throws it again.
    private func failingOnce<T>(_ body: () throws -> T) throws -> T {
        if let failure { throw failure }
        do {
            return try body()
        } catch {
            failure = error
            rows.stop()
            throw error
        }
    }

    /// Bytes of the file consumed so far: the header and the rows delivered, including newlines
    /// (and a dropped torn final line); after an error, up to the row before the bad line. For a
    /// gzip input, decompressed bytes (``inputBytesRead`` counts the file's).
    public var bytesRead: Int { rows.bytesRead }

    /// Bytes of the input file consumed so far, for progress against its size: ``bytesRead``, or
    /// for a gzip input the compressed bytes read.
    public var inputBytesRead: Int { gzip?.compressedBytesRead ?? rows.bytesRead }
}
