#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// Where the bytes of a recording come from: a file or other descriptor, memory, or (for a
/// dialect reader that needs one) a decoding stream such as a gzip decompressor. The readers
/// only call ``read(into:count:)``; a source is read by one thread at a time.
public protocol RecordingByteSource: AnyObject {
    /// The name used in messages (a path, `standard input`).
    var name: String { get }
    /// The identity of the file read, when it is one (compared with an output's, so a command
    /// never overwrites its own input); nil for memory.
    var identity: FileIdentity? { get }
    /// The bytes left to read, when known (a hint for progress and threading; a file may change).
    var bytesRemaining: Int? { get }
    /// Reads up to `count` bytes into `buffer`.
    /// - Returns: the number of bytes read; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
}

/// A file (or pipe, or terminal) read through its ``FileDescriptor``.
public final class RecordingFileSource: RecordingByteSource {
    /// The open descriptor.
    public let file: FileDescriptor
    public let name: String
    public let identity: FileIdentity?

    /// Reads from `file`, named `name` in messages.
    public init(file: FileDescriptor, name: String) {
        self.file = file
        self.name = name
        identity = try? file.identity()
    }

    /// Opens `path` for reading.
    /// - Throws: ``SystemError`` from `open(2)`; `EISDIR` for a directory.
    public convenience init(path: String) throws(SystemError) {
        let file = try FileDescriptor.openForReading(path)
        if let st = try? file.status(), (st.st_mode & S_IFMT) == S_IFDIR {
            throw SystemError(.isDirectory, call: "read", subject: path)
        }
        self.init(file: file, name: path)
    }

    public var bytesRemaining: Int? { file.bytesRemaining() }

    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        try file.read(into: buffer, count: count)
    }
}

/// Bytes already in memory (tests, fuzzing, decoded data).
public final class RecordingMemorySource: RecordingByteSource {
    public let name: String
    public var identity: FileIdentity? { nil }
    private let bytes: [UInt8]
    private var offset = 0

    /// Serves `bytes`, named `name` in messages.
    public init(_ bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    public var bytesRemaining: Int? { bytes.count - offset }

    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let n = min(count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { b in buffer.copyMemory(from: b.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}
