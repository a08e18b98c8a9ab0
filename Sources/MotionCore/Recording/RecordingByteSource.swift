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
    /// Reads at any offset, when the source allows it (a regular file, memory): what a zip
    /// archive needs. Nil for streams (pipes, terminals, decoders).
    var randomAccess: (any RecordingRandomAccess)? { get }
}

extension RecordingByteSource {
    /// No random access (a stream).
    public var randomAccess: (any RecordingRandomAccess)? { nil }
}

/// Reads at any offset of a fixed-size input (`pread(2)` on a regular file, or memory).
public protocol RecordingRandomAccess: AnyObject {
    /// Bytes in the input.
    var size: Int { get }
    /// Reads up to `count` bytes at `offset`.
    /// - Returns: the number of bytes read; 0 at or after the end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws -> Int
}

extension RecordingRandomAccess {
    /// Exactly `count` bytes at `offset`, or nil when the input ends first.
    func bytes(at offset: Int, count: Int) throws -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = try out.withUnsafeMutableBytes { b in try read(into: b.baseAddress! + done, count: count - done, at: offset + done) }
            if n == 0 { return nil }
            done += n
        }
        return out
    }
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

    /// `pread(2)` on a regular file; nil for a pipe, terminal or device.
    public var randomAccess: (any RecordingRandomAccess)? {
        guard let st = try? file.status(), (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileRandomAccess(file: file, size: Int(st.st_size))
    }
}

/// A regular file read with `pread(2)` (its size fixed when opened).
final class FileRandomAccess: RecordingRandomAccess {
    let file: FileDescriptor
    let size: Int

    init(file: FileDescriptor, size: Int) {
        self.file = file
        self.size = size
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws -> Int {
        guard offset < size else { return 0 }
        return try file.read(into: buffer, count: min(count, size - offset), at: Int64(offset))
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
        let n = read(into: buffer, count: count, at: offset)
        offset += n
        return n
    }

    /// The bytes, at any offset.
    public var randomAccess: (any RecordingRandomAccess)? { self }
}

extension RecordingMemorySource: RecordingRandomAccess {
    public var size: Int { bytes.count }

    public func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        let n = min(count, bytes.count - offset)
        guard n > 0, offset >= 0 else { return 0 }
        bytes.withUnsafeBytes { b in buffer.copyMemory(from: b.baseAddress! + offset, byteCount: n) }
        return n
    }
}
