#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A regular file written completely under a temporary name and then put in place in one step,
/// so that the file at its final path is always either the previous one or the new one, whole.
///
/// - Creation: the final path's symbolic links are followed (``ResolvedPath``: a symlinked output
///   keeps its link); a temporary file `.NAME.XXXXXXXX.tmp` is created exclusively (`O_EXCL`,
///   random suffix) in the same directory, so the rename stays within one file system, and
///   registered with ``TemporaryFileCleanup`` (removed on SIGINT, SIGTERM, SIGHUP, SIGXFSZ,
///   SIGPIPE). A replaced file's permission bits are copied to it.
/// - ``commit()``: `fsync(2)` of the data, then `rename(2)` over the final path (replacing) or
///   `link(2)` + `unlink(2)` of the temporary name (not replacing: fails with `EEXIST` if a file
///   appeared meanwhile, so two writers never both think they created it), then `fsync(2)` of the
///   directory so that the new entry survives a power cut.
/// - Any failure, ``discard()``, or releasing the object before ``commit()`` removes the
///   temporary file; a pre-existing file at the final path is never touched until the rename.
///
/// On file systems without hard links (FAT on an SD card) the not-replacing commit checks that the
/// final path is still free and renames: a writer that creates the same path in that instant is
/// replaced (documented race).
public final class AtomicFile {
    /// What to do when the final path already names a file.
    public enum Existing: Sendable {
        /// Fail with `EEXIST` (at creation and again at commit).
        case refuse
        /// Replace it (atomically, at commit).
        case replace
    }

    /// The path as given.
    public let path: String
    /// Where the file is put by ``commit()`` (``path`` with its symbolic links followed).
    public let target: ResolvedPath
    /// The temporary file's path (in ``target``'s directory).
    public let temporaryPath: String
    /// The identity of the file at ``target`` when this writer was created, if one existed.
    public let replacedIdentity: FileIdentity?
    /// The policy for an existing file.
    public let existing: Existing

    private let file: FileDescriptor
    private var registration: TemporaryFileCleanup.Registration?
    private var finished = false

    /// Creates the temporary file for `path`.
    /// - Parameter mode: permission bits of a new file (before the umask); a replaced file's are kept.
    /// - Throws: ``SystemError``: `EEXIST` when `existing` is `.refuse` and the file exists,
    ///   `EISDIR` for a directory, `EINVAL` for anything that is not a regular file (use
    ///   ``OutputFile`` for streams), or the failing `open`.
    public init(path: String, existing: Existing, mode: mode_t = 0o666) throws(SystemError) {
        self.path = path
        self.existing = existing
        target = try ResolvedPath.resolve(path)
        var st = stat()
        var keepMode: mode_t?
        if stat(target.path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw SystemError(.isDirectory, call: "open", subject: path)
            default: throw SystemError(.invalidArgument, call: "open", subject: path, message: "not a regular file")
            }
            guard existing == .replace else { throw SystemError(.exists, call: "open", subject: path) }
            replacedIdentity = FileIdentity(st)
            keepMode = st.st_mode & 0o7777
        } else {
            guard Errno.current == .noEntry else { throw SystemError.current("stat", subject: path) }
            replacedIdentity = nil
        }
        // A unique name in the same directory, within NAME_MAX (255 bytes).
        let base = String(decoding: target.name.utf8.prefix(200), as: UTF8.self)
        var created: (FileDescriptor, String, TemporaryFileCleanup.Registration?)?
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let candidate = (target.directory == "." ? "" : target.directory + "/") + ".\(base).\(suffix).tmp"
            // Registered before it exists: a signal between the creation and the registration
            // would otherwise leave the file behind. (A random 64-bit name that already exists,
            // the only case where the handler could remove a file not ours, is not a real risk.)
            let registration = TemporaryFileCleanup.register(candidate)
            do throws(SystemError) {
                created = (try FileDescriptor.open(candidate, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode), candidate, registration)
                break
            } catch {
                if let registration { TemporaryFileCleanup.unregister(registration) }
                if error.errno == .exists { continue }
                throw error
            }
        }
        guard let (fd, tmp, registered) = created else { throw SystemError(.exists, call: "open", subject: target.directory, message: "no free temporary name") }
        file = fd
        temporaryPath = tmp
        registration = registered
        if let keepMode, fchmod(fd.rawValue, keepMode) != 0 {
            let error = SystemError.current("fchmod", subject: tmp)
            discard()
            throw error
        }
    }

    deinit { discard() }

    /// The open temporary file (for writers that write through a ``FileDescriptor``).
    public var descriptor: FileDescriptor { file }

    /// Appends `bytes` to the temporary file; the file is discarded if the write fails.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        precondition(!finished, "AtomicFile written after commit or discard")
        do { try file.write(bytes) } catch { discard(); throw error }
    }

    /// Appends `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        precondition(!finished, "AtomicFile written after commit or discard")
        do { try file.write(bytes) } catch { discard(); throw error }
    }

    /// Makes the written content the file at ``target``: `fsync`, `close`, rename (or link) into
    /// place, `fsync` of the directory. Idempotent once it succeeded.
    /// - Throws: ``SystemError`` from any step; before the rename the temporary file is removed
    ///   and the final path is untouched. A failing directory `fsync` is reported after the file
    ///   is in place (its content is complete, its durability not guaranteed).
    public func commit() throws(SystemError) {
        guard !finished else { return }
        do throws(SystemError) {
            try file.sync()
            try file.close()
            switch existing {
            case .replace:
                guard rename(temporaryPath, target.path) == 0 else { throw SystemError.current("rename", subject: target.path) }
            case .refuse:
                try linkWithoutReplacing()
            }
        } catch {
            discard()
            throw error
        }
        finished = true
        if let registration { TemporaryFileCleanup.unregister(registration) }
        registration = nil
        try FileDescriptor.syncDirectory(containing: target.path)
    }

    /// `link(2)` the temporary file to the target (`EEXIST` if it exists) and remove the
    /// temporary name; without hard links, check and `rename(2)`.
    private func linkWithoutReplacing() throws(SystemError) {
        if link(temporaryPath, target.path) == 0 {
            _ = unlink(temporaryPath)
            return
        }
        let e = Errno.current
        switch e {
        case .exists:
            throw SystemError(.exists, call: "link", subject: path)
        case .notPermitted, Errno(EOPNOTSUPP), Errno(EMLINK), .notImplemented:
            var st = stat()
            guard lstat(target.path, &st) != 0, Errno.current == .noEntry else {
                throw SystemError(.exists, call: "rename", subject: path)
            }
            guard rename(temporaryPath, target.path) == 0 else { throw SystemError.current("rename", subject: target.path) }
        default:
            throw SystemError(e, call: "link", subject: target.path)
        }
    }

    /// Closes and removes the temporary file unless committed. Idempotent; never throws.
    public func discard() {
        guard !finished else { return }
        finished = true
        try? file.close()
        _ = unlink(temporaryPath)
        if let registration { TemporaryFileCleanup.unregister(registration) }
        registration = nil
    }

    /// Writes `bytes` to `path` atomically (create, write, ``commit()``), replacing or refusing an
    /// existing file as `existing` says.
    public static func write(_ bytes: [UInt8], to path: String, existing: Existing = .replace) throws(SystemError) {
        let file = try AtomicFile(path: path, existing: existing)
        try file.write(bytes)
        try file.commit()
    }
}
