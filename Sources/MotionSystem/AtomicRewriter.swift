#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small file replaced atomically again and again (a capture's checkpoint, once a second): each
/// ``replace(with:)`` does what ``AtomicFile/write(_:to:existing:)`` does with `.replace` — a
/// temporary file created exclusively in the target's directory, written, `fsync`ed, renamed over
/// the target (whose permission bits it takes), then the directory `fsync`ed — but the target is
/// resolved, the temporary name chosen and registered with ``TemporaryFileCleanup``, and the
/// directory opened once, when the rewriter is created, so that a replacement allocates nothing.
///
/// The target's symbolic links are followed once (``AtomicFile`` follows them at every write).
/// When the temporary name is taken (a file left by a process killed mid-write), that replacement
/// falls back to ``AtomicFile/write(_:to:existing:)`` with a fresh name. Any failure removes the
/// temporary file and leaves the target as it was.
public final class AtomicRewriter {
    /// The path as given.
    public let path: String
    /// Where the file is put (``path`` with its symbolic links followed, when the rewriter was created).
    public let target: ResolvedPath
    /// The temporary file's path (in ``target``'s directory).
    public let temporaryPath: String
    private let targetC: ContiguousArray<CChar>
    private let temporaryC: ContiguousArray<CChar>
    private let directory: FileDescriptor
    private var registration: TemporaryFileCleanup.Registration?

    /// Prepares the rewriter for `path`.
    /// - Throws: ``SystemError`` when the path cannot be resolved or its directory opened.
    public init(path: String) throws(SystemError) {
        self.path = path
        target = try ResolvedPath.resolve(path)
        let base = String(decoding: target.name.utf8.prefix(200), as: UTF8.self)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        temporaryPath = (target.directory == "." ? "" : target.directory + "/") + ".\(base).\(suffix).tmp"
        targetC = target.path.utf8CString
        temporaryC = temporaryPath.utf8CString
        directory = try FileDescriptor.open(target.directory, flags: O_RDONLY | O_DIRECTORY)
        registration = TemporaryFileCleanup.register(temporaryPath)
    }

    deinit {
        if let registration { TemporaryFileCleanup.unregister(registration) }
    }

    /// Replaces the target's content with `bytes`, atomically and durably.
    /// - Throws: ``SystemError`` from any step (`ENOSPC` when the disk is full); the target is then
    ///   untouched and the temporary file removed.
    public func replace(with bytes: [UInt8]) throws(SystemError) {
        var result: Result<Void, SystemError> = .success(())
        bytes.withUnsafeBytes { b in
            do throws(SystemError) { try replace(with: b) } catch { result = .failure(error) }
        }
        try result.get()
    }

    /// Replaces the target's content with `bytes` (see ``replace(with:)-([UInt8])``).
    public func replace(with bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var st = stat()
        var keepMode: mode_t?
        if targetC.withUnsafeBufferPointer({ stat($0.baseAddress!, &st) }) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: keepMode = st.st_mode & 0o7777
            case S_IFDIR: throw SystemError(.isDirectory, call: "open", subject: path)
            default: throw SystemError(.invalidArgument, call: "open", subject: path, message: "not a regular file")
            }
        } else if Errno.current != .noEntry {
            throw SystemError.current("stat", subject: path)
        }
        let fd = temporaryC.withUnsafeBufferPointer { Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o666)) }
        if fd < 0 {
            // Taken (left by a killed writer) or another failure: the general path says which.
            try AtomicFile.write(Array(bytes), to: path, existing: .replace)
            return
        }
        var failure: SystemError?
        if let keepMode, fchmod(fd, keepMode) != 0 { failure = SystemError.current("fchmod", subject: temporaryPath) }
        var offset = 0
        while failure == nil, offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if Errno.current == .interrupted { continue }
                failure = SystemError.current("write", subject: temporaryPath)
            } else {
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = SystemError.current("fsync", subject: temporaryPath) }
        if Glibc.close(fd) != 0, failure == nil { failure = SystemError.current("close", subject: temporaryPath) }
        if failure == nil {
            let renamed = temporaryC.withUnsafeBufferPointer { t in targetC.withUnsafeBufferPointer { rename(t.baseAddress!, $0.baseAddress!) } }
            if renamed != 0 { failure = SystemError.current("rename", subject: target.path) }
        }
        if let failure {
            _ = temporaryC.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            throw failure
        }
        try directory.sync()
    }
}
