#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// A stream copied into an anonymous temporary file (`O_TMPFILE` in `$TMPDIR`, else `/tmp`: it
/// has no name and disappears when closed, also after a crash), for what needs random access
/// but arrives on a pipe: a zip archive on standard input. Memory stays at one buffer; the disk
/// holds the copy while it is read.
enum SpooledFile {
    /// Copies `prefix`, then the rest of `source`, into a new anonymous file, at most
    /// `limits.maxSpool` bytes and never more than the folder's free space less a margin
    /// (``ArchiveLimits/room(free:total:)``). SIGXFSZ is ignored while it writes, so that a file-size
    /// limit (`ulimit -f`) is an error (`EFBIG`) rather than the end of the process.
    /// - Throws: ``RecordingError`` naming the input for a spool that cannot be created or
    ///   written (a missing or read-only `TMPDIR`, no space, the file-size limit) or that passes
    ///   the bound; ``SystemError`` from reading `source`.
    /// - Parameter directory: where the file is made; nil: `$TMPDIR`, else `/tmp`.
    static func copy(_ source: any RecordingByteSource, prefix: [UInt8], limits: ArchiveLimits = ArchiveLimits(), directory: String? = nil) throws -> any RecordingRandomAccess {
        let path = directory ?? defaultDirectory
        let file: FileDescriptor
        // Named in messages with its bytes escaped (it comes from the environment).
        let directory = DiagnosticText.escaped(path.utf8)
        do { file = try anonymousFile(in: path) } catch {
            throw failure(source, directory, error, written: 0)
        }
        let room = freeSpace(file).map { ArchiveLimits.room(free: $0.free, total: $0.total) }
        let bound = min(limits.maxSpool, room ?? .max)
        var ignored = sigaction()
        var previous = sigaction()
        ignored.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGXFSZ, &ignored, &previous)
        defer { sigaction(SIGXFSZ, &previous, nil) }
        var size = 0
        func append(_ bytes: UnsafeRawBufferPointer) throws {
            guard Int64(size) + Int64(bytes.count) <= bound else {
                let why = bound < limits.maxSpool
                    ? "the \(room ?? 0) bytes \(directory) can spare (its free space less a margin of 256 MiB or 5% of its size; set TMPDIR to a folder with more room)"
                    : "'--max-spool' (\(limits.maxSpool) bytes; give a larger SIZE, or the file itself instead of a pipe)"
                throw RecordingError(file: source.name, byteOffset: size, problem: "needs a temporary copy (a zip archive, or an input read several times, on a pipe) larger than \(why)")
            }
            do { try file.write(bytes) } catch { throw failure(source, directory, error, written: size) }
            size += bytes.count
        }
        try prefix.withUnsafeBytes { try append($0) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress!, count: b.count) }
            if n == 0 { break }
            try chunk.withUnsafeBytes { b in try append(UnsafeRawBufferPointer(rebasing: b[..<n])) }
        }
        return FileRandomAccess(file: file, size: size)
    }

    /// `$TMPDIR`, else `/tmp`.
    static var defaultDirectory: String {
        if let t = getenv("TMPDIR"), let s = String(validatingCString: t), !s.isEmpty { return s }
        return "/tmp"
    }

    /// The error for a spool in `directory` that could not be created or written.
    private static func failure(_ source: any RecordingByteSource, _ directory: String, _ error: SystemError, written: Int) -> RecordingError {
        let what: String
        switch error.errno {
        case .fileTooLarge: what = "reached the file-size limit (RLIMIT_FSIZE, 'ulimit -f') after \(written) bytes"
        case .noSpace, .quotaExceeded: what = "ran out of space in \(directory) after \(written) bytes (\(error.reason)); set TMPDIR to a folder with room"
        case .noEntry: what = "cannot be created: the folder \(directory) does not exist (set TMPDIR to a writable folder)"
        case .notDirectory: what = "cannot be created: \(directory) is not a folder (set TMPDIR to a writable folder)"
        case .permissionDenied, .readOnlyFileSystem, .notPermitted: what = "cannot be created in \(directory) (\(error.reason)); set TMPDIR to a writable folder"
        default: what = "failed in \(directory): \(error)"
        }
        return RecordingError(file: source.name, byteOffset: written, problem: "needs a temporary copy (a zip archive, or an input read several times, on a pipe), which " + what)
    }

    /// Bytes an unprivileged process may still write where `file` is, and the file system's size
    /// (`fstatvfs`), nil when unknown.
    private static func freeSpace(_ file: FileDescriptor) -> (free: Int64, total: Int64)? {
        var st = statvfs()
        guard fstatvfs(file.rawValue, &st) == 0 else { return nil }
        func bytes(_ blocks: UInt) -> Int64 {
            let b = UInt64(blocks).multipliedReportingOverflow(by: UInt64(st.f_frsize))
            return b.overflow ? .max : Int64(clamping: b.partialValue)
        }
        return (bytes(st.f_bavail), bytes(st.f_blocks))
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

    /// Copies everything `input` yields, within `limits` (``ArchiveLimits/maxSpool``).
    /// - Throws: ``RecordingError`` naming the input for a spool that passes the bound or cannot
    ///   be created or written; ``SystemError`` from opening or reading.
    public init(copying input: RecordingInput, limits: ArchiveLimits = ArchiveLimits()) throws {
        let source = try input.open()
        name = source.name
        guard let f = try SpooledFile.copy(source, prefix: [], limits: limits) as? FileRandomAccess else { preconditionFailure("SpooledFile.copy returns a file") }
        file = f
    }

    /// The copy, from its start.
    /// - Throws: ``SystemError`` when it cannot be opened again.
    public func input() throws -> RecordingInput {
        let again = try FileDescriptor.openForReading("/proc/self/fd/\(file.file.rawValue)")
        return .source(RecordingFileSource(file: again, name: name))
    }
}
