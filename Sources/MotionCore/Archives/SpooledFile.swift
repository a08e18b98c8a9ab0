#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// A stream copied into an anonymous temporary file (`O_TMPFILE` in `$TMPDIR`, else `/tmp`: it
/// has no name and disappears when closed, also after a crash), for what needs random access
/// but arrives on a pipe: a zip archive on standard input. Memory stays at one buffer; the disk
/// holds the copy while it is read.
enum SpooledFile {
    /// Copies `prefix`, then the rest of `source`, into a new anonymous file.
    /// - Throws: ``SystemError`` from `open` (a file system without `O_TMPFILE`), `read` or `write`.
    static func copy(_ source: any RecordingByteSource, prefix: [UInt8]) throws -> any RecordingRandomAccess {
        var directory = "/tmp"
        if let t = getenv("TMPDIR"), let s = String(validatingCString: t), !s.isEmpty { directory = s }
        let file = try anonymousFile(in: directory)
        try file.write(prefix)
        var size = prefix.count
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress!, count: b.count) }
            if n == 0 { break }
            try chunk.withUnsafeBytes { b in try file.write(UnsafeRawBufferPointer(rebasing: b[..<n])) }
            size += n
        }
        return FileRandomAccess(file: file, size: size)
    }

    /// `open(directory, O_TMPFILE | O_RDWR)`; where the file system lacks `O_TMPFILE`, a
    /// `mkstemp(3)` file unlinked at once.
    private static func anonymousFile(in directory: String) throws(SystemError) -> FileDescriptor {
        // O_TMPFILE is __O_TMPFILE (0o20000000 on Linux's common architectures) | O_DIRECTORY;
        // Glibc's Swift module does not export the macro.
        let tmpfile = Int32(0o20000000) | O_DIRECTORY
        do {
            return try FileDescriptor.open(directory, flags: tmpfile | O_RDWR, mode: 0o600)
        } catch {
            var template = Array((directory + "/motionbatch-spool-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw SystemError.current("mkstemp", subject: directory) }
            let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            unlink(path)
            return FileDescriptor(adopting: fd, path: path)
        }
    }
}

/// A stream (standard input) copied once into an anonymous temporary file, so that it can be
/// read from the start as many times as a command needs (`wakes -` reads its recording three
/// times). Each ``input()`` opens it afresh (`/proc/self/fd/N`), named as the stream was.
public final class SpooledInput {
    /// The name used in messages (`standard input`).
    public let name: String
    private let file: FileRandomAccess

    /// Copies everything `input` yields.
    /// - Throws: ``SystemError`` from opening, reading or writing.
    public init(copying input: RecordingInput) throws {
        let source = try input.open()
        name = source.name
        guard let f = try SpooledFile.copy(source, prefix: []) as? FileRandomAccess else { preconditionFailure("SpooledFile.copy returns a file") }
        file = f
    }

    /// The copy, from its start.
    /// - Throws: ``SystemError`` when it cannot be opened again.
    public func input() throws -> RecordingInput {
        let again = try FileDescriptor.openForReading("/proc/self/fd/\(file.file.rawValue)")
        return .source(RecordingFileSource(file: again, name: name))
    }
}
