/// A format of recording files: how to recognise it from the first bytes, and how to read it.
/// ``RecordingReader`` is the one entry point: it reads the first bytes of its input, asks the
/// registered dialects (``RecordingDialects/all``) in order which one recognises them (or takes
/// the one named), and reads through that dialect's ``RecordingRowReader``. A new dialect is one
/// type conforming to this protocol plus one line in ``RecordingDialects/all``.
public protocol RecordingDialect: Sendable {
    /// The dialect's name (for an `--input-format NAME` option and messages): `motionbatch`, `plain`.
    var name: String { get }

    /// Whether `prefix`, the first bytes of the input (up to ``RecordingDialects/sniffLength``,
    /// fewer for a short input or a small buffer size), looks like this dialect. Cheap and side-effect free.
    func recognizes(_ prefix: [UInt8]) -> Bool

    /// A reader for the input: `source` continues after `prefix`, which the reader must consume
    /// first. `options` carries the reader's buffer size and threads.
    /// - Throws: ``RecordingError`` for a malformed header; the source's read errors.
    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader
}

/// Settings a dialect reader may use.
public struct RecordingReadOptions: Sendable {
    /// Bytes per block read and parsed at once; also the longest line accepted.
    public var bufferSize: Int
    /// Worker threads that may parse ahead of the caller (1: none).
    public var threads: Int

    /// Creates options.
    public init(bufferSize: Int = RecordingReader.defaultBufferSize, threads: Int = RecordingReader.defaultThreadCount) {
        self.bufferSize = max(bufferSize, 64)
        self.threads = max(threads, 1)
    }
}

/// The registered dialects and how one is chosen.
public enum RecordingDialects {
    /// Every dialect the reader knows, in the order they are asked (the first that recognises the
    /// input reads it). When none does, ``fallback`` reads it and reports what it expected.
    public static let all: [any RecordingDialect] = [motionBatch, plainCSV]

    /// MotionBatch's own format (docs/recording-format.md), recognised by a first line that
    /// starts with `#`.
    public static let motionBatch: any RecordingDialect = CSVDialect(name: "motionbatch", format: .current)

    /// The datasets' plain CSV (`time_s,accel_x,...`), recognised by its first column.
    public static let plainCSV: any RecordingDialect = CSVDialect(name: "plain", format: .plain)

    /// The dialect that reads an input no dialect recognises: the CSV header parser, whose error
    /// lists what was expected.
    public static let fallback: any RecordingDialect = CSVDialect(name: "csv", format: nil)

    /// How many bytes are read ahead to recognise a dialect.
    public static let sniffLength = 4096

    /// The dialect named `name`, or nil.
    public static func named(_ name: String) -> (any RecordingDialect)? {
        all.first { $0.name == name }
    }

    /// The names of all dialects, for help and messages.
    public static var names: [String] { all.map(\.name) }
}
