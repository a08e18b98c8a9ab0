/// A format of recording files: how to recognise it from the first bytes, and how to read it.
/// ``RecordingReader`` is the one entry point: it reads the first bytes of its input, asks the
/// registered dialects (``RecordingDialects/all``) in order which one recognises them (or takes
/// the one named), and reads through that dialect's ``RecordingRowReader``. A new dialect is one
/// type conforming to this protocol plus one line in ``RecordingDialects/all``. Dialects whose
/// exports are several files (a zip archive or a folder) also implement
/// ``recognizes(archive:)`` and ``makeReader(archive:options:)``.
public protocol RecordingDialect: Sendable {
    /// The dialect's name (for an `--input-format NAME` option and messages): `motionbatch`, `plain`.
    var name: String { get }
    /// One line saying what the dialect reads, for help and messages.
    var summary: String { get }

    /// Whether `prefix`, the first bytes of the input (up to ``RecordingDialects/sniffLength``,
    /// fewer for a short input or a small buffer size), looks like this dialect. Cheap and side-effect free.
    func recognizes(_ prefix: [UInt8]) -> Bool

    /// A reader for the input: `source` continues after `prefix`, which the reader must consume
    /// first. `options` carries the reader's buffer size and threads.
    /// - Throws: ``RecordingError`` for a malformed header; the source's read errors.
    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader

    /// Whether `archive` (a zip archive or a folder) holds a recording in this dialect. May open
    /// members to look at their first bytes.
    func recognizes(archive: any RecordingArchive) -> Bool

    /// A reader for the recording in `archive`.
    /// - Throws: ``RecordingError`` for a malformed member; the members' read errors.
    func makeReader(archive: any RecordingArchive, options: RecordingReadOptions) throws -> any RecordingRowReader
}

extension RecordingDialect {
    public var summary: String { name }

    /// Single-file dialects recognise no archive.
    public func recognizes(archive: any RecordingArchive) -> Bool { false }

    /// Single-file dialects refuse an archive.
    public func makeReader(archive: any RecordingArchive, options: RecordingReadOptions) throws -> any RecordingRowReader {
        throw RecordingError(file: archive.name, line: nil, problem: "is a folder or zip archive; the '\(name)' format is read from a single file")
    }
}

/// Settings a dialect reader may use.
public struct RecordingReadOptions: Sendable {
    /// Bytes per block read and parsed at once; also the longest line accepted.
    public var bufferSize: Int
    /// Worker threads that may parse ahead of the caller (1: none).
    public var threads: Int
    /// What the user says about the input that the file cannot (columns, units, scan layout).
    public var dialect: RecordingDialectOptions
    /// Bounds on spooled and decompressed bytes (`--max-spool`, `--max-ratio`).
    public var limits = ArchiveLimits()
    /// The plausibility rule the samples are judged by once read (its findings are warnings of
    /// the reader: ``RecordingWarningKind/plausibility``), nil for none.
    public var plausibility: PlausibilityRule?

    /// The smallest block size (a smaller one given is raised to it): also how far a dialect may
    /// look for binary bytes, so that the dialect chosen never depends on the block size.
    public static let minimumBufferSize = 64

    /// Creates options.
    public init(bufferSize: Int = RecordingReader.defaultBufferSize, threads: Int = RecordingReader.defaultThreadCount,
                dialect: RecordingDialectOptions = RecordingDialectOptions(), plausibility: PlausibilityRule? = nil) {
        self.plausibility = plausibility
        self.bufferSize = max(bufferSize, Self.minimumBufferSize)
        self.threads = max(threads, 1)
        self.dialect = dialect
    }
}

/// The registered dialects and how one is chosen.
public enum RecordingDialects {
    /// Every dialect the reader knows, in the order they are asked (the first that recognises the
    /// input reads it). When none does, ``fallback`` reads it and reports what it expected.
    /// docs/dialects.md describes each and its mapping to SI units, axes and time.
    public static let all: [any RecordingDialect] = [motionBatch, plainCSV, PhyphoxDialect(), SensorLoggerDialect(), BangleDialect(), ColumnsDialect(), GT3XDialect(), ActiLifeCSVDialect(), CWADialect(), IIOBufferDialect()]

    /// MotionBatch's own format (docs/recording-format.md), recognised by a first line that
    /// starts with `#`.
    public static let motionBatch: any RecordingDialect = CSVDialect(name: "motionbatch", format: .current)

    /// The datasets' plain CSV (`time_s,accel_x,...`), recognised by its column line.
    public static let plainCSV: any RecordingDialect = CSVDialect(name: "plain", format: .plain)

    /// The dialect that reads an input no dialect recognises: the CSV header parser, whose error
    /// lists what was expected (and names the other dialects).
    public static let fallback: any RecordingDialect = UnrecognisedInputDialect()

    /// How many bytes are read ahead to recognise a dialect.
    public static let sniffLength = 4096

    /// The dialect named `name`, or nil.
    public static func named(_ name: String) -> (any RecordingDialect)? {
        all.first { $0.name == name }
    }

    /// The names of all dialects, for help and messages.
    public static var names: [String] { all.map(\.name) }
}
