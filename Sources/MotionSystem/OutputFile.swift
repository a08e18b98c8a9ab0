#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a command writes one output, chosen from the path the user gave:
///
/// - a **stream**, written directly and never `fsync`ed, its failures reported by the command's
///   exit status: `-` (standard output), `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and
///   `/proc/self/fd/N` (the descriptor itself, duplicated, so writes continue at the shell's
///   offset), or any path that names a FIFO, a terminal or another character device, or a socket;
/// - otherwise a **regular file**, written in one of two ways (``Mode``): atomically through an
///   ``AtomicFile`` (a temporary file renamed into place at ``commit()``: the default for every
///   file the tool writes), or as an append-only **journal** (created at its final path and
///   appended to, `fsync`ed when the writer says: capture's recording, which must keep what it
///   has after a crash; locked with `flock(2)` while open).
///
/// Directories and block devices are refused.
public final class OutputFile {
    /// How a regular file is written.
    public enum Mode: Sendable {
        /// Temporary file, renamed over the path at ``OutputFile/commit()``; `replace` allows an
        /// existing file to be replaced.
        case atomic(replace: Bool)
        /// Created at its path (`O_EXCL`, or `O_TRUNC` with `replace`) and appended to;
        /// ``OutputFile/sync()`` makes what was written durable.
        case journal(replace: Bool)
    }

    /// How the output is written, as decided from the path.
    public enum Kind: Sendable, Equatable {
        /// Written directly; no `fsync`, no rename.
        case stream
        /// A regular file written through a temporary file and renamed into place.
        case atomic
        /// A regular file appended to at its final path.
        case journal
    }

    /// The name that means standard output.
    public static let standardOutputName = "-"

    /// The path as given (used in messages; `-` is shown as `standard output`).
    public let path: String
    /// How this output is written.
    public let kind: Kind
    /// The file written to, for comparison with the inputs: the stream's or journal's open file,
    /// or the regular file that will be replaced (nil when an atomic output creates a new file).
    public let identity: FileIdentity?

    private let atomic: AtomicFile?
    private let file: FileDescriptor
    private var finished = false

    /// Opens the output `path`.
    /// - Throws: ``SystemError``: `EEXIST` for an existing regular file without `replace`,
    ///   `EISDIR`, `EINVAL` for a block device, or the failing `open`/`dup`.
    public init(path: String, mode: Mode) throws(SystemError) {
        self.path = path
        if let fd = Self.descriptorNumber(named: path) {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else { throw SystemError.current("dup", subject: Self.displayName(path)) }
            file = FileDescriptor(adopting: copy, path: Self.displayName(path))
            kind = .stream
            atomic = nil
            identity = try? file.identity()
            return
        }
        var st = stat()
        let exists = stat(path, &st) == 0
        if !exists && Errno.current != .noEntry { throw SystemError.current("stat", subject: path) }
        if exists {
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw SystemError(.isDirectory, call: "open", subject: path)
            case S_IFBLK:
                throw SystemError(.invalidArgument, call: "open", subject: path, message: "is a block device (refusing to write to it)")
            default:  // FIFO, character device, terminal, socket
                file = try FileDescriptor.open(path, flags: O_WRONLY | O_NOCTTY)
                kind = .stream
                atomic = nil
                identity = try? file.identity()
                return
            }
        }
        switch mode {
        case .atomic(let replace):
            let a = try AtomicFile(path: path, existing: replace ? .replace : .refuse)
            atomic = a
            file = a.descriptor
            kind = .atomic
            identity = a.replacedIdentity
        case .journal(let replace):
            file = try FileDescriptor.create(path, replaceExisting: replace)
            kind = .journal
            atomic = nil
            identity = try? file.identity()
            do { try FileDescriptor.syncDirectory(containing: path) } catch {
                try? file.close()
                throw error
            }
            // Locked while it is written (released by the kernel however the process ends), so
            // that a recovery tool can tell an open journal from an interrupted one (FileLock.isHeld).
            _ = flock(file.rawValue, LOCK_EX | LOCK_NB)
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N`: the descriptor number.
    static func descriptorNumber(named path: String) -> Int32? {
        switch path {
        case standardOutputName, "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                if let n = Int32(path.dropFirst(prefix.count)), n >= 0 { return n }
            }
            return nil
        }
    }

    /// `standard output` for `-`, else the path.
    public static func displayName(_ path: String) -> String {
        path == standardOutputName ? "standard output" : path
    }

    /// Writes all of `bytes`. On failure an atomic output is discarded (its temporary file removed).
    /// A stream whose reader has gone (`EPIPE`, met only while SIGPIPE is ignored: see
    /// ``BrokenPipeSignal``) ends the process by SIGPIPE, as the signal's default action would
    /// have (``TemporaryFileCleanup/terminate(by:)``).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        precondition(!finished, "OutputFile written after commit or discard")
        if let atomic { try atomic.write(bytes) } else { try endingOnBrokenPipe { () throws(SystemError) in try file.write(bytes) } }
    }

    /// Writes all of `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        precondition(!finished, "OutputFile written after commit or discard")
        if let atomic { try atomic.write(bytes) } else { try endingOnBrokenPipe { () throws(SystemError) in try file.write(bytes) } }
    }

    /// Runs a stream or journal write; `EPIPE` on a stream ends the process by SIGPIPE.
    private func endingOnBrokenPipe(_ body: () throws(SystemError) -> Void) throws(SystemError) {
        do { try body() } catch {
            if kind == .stream, error.errno == .brokenPipe { TemporaryFileCleanup.terminate(by: SIGPIPE) }
            throw error
        }
    }

    /// Makes what was written so far durable where that means something: `fsync(2)` for a
    /// journal; nothing for a stream (pipes and terminals cannot be synced) or an atomic file
    /// (synced once, at ``commit()``).
    public func sync() throws(SystemError) {
        if kind == .journal { try file.sync() }
    }

    /// Cuts a journal back to `size` bytes (`ftruncate(2)`): after a write that failed part-way
    /// (a full disk), so that the file never ends in a partial write. Nothing for other kinds.
    public func truncate(to size: Int64) throws(SystemError) {
        precondition(!finished, "OutputFile truncated after commit or discard")
        if kind == .journal { try file.truncate(to: size) }
    }

    /// Abandons the output and removes a journal from its path (one that must not be left
    /// behind: its header could not be written); otherwise as ``discard()``. Never throws.
    public func discardRemovingJournal() {
        let wasOpenJournal = kind == .journal && !finished
        discard()
        if wasOpenJournal { _ = unlink(path) }
    }

    /// Finishes the output: an atomic file is synced and renamed into place, a journal synced and
    /// closed, a stream's descriptor closed. Idempotent once it succeeded.
    public func commit() throws(SystemError) {
        guard !finished else { return }
        finished = true
        switch kind {
        case .atomic:
            try atomic!.commit()
        case .journal:
            do { try file.sync() } catch { try? file.close(); throw error }
            try file.close()
        case .stream:
            try file.close()
        }
    }

    /// Abandons the output: an atomic output's temporary file is removed (a pre-existing file
    /// stays as it was); a journal keeps what was written (it is closed without a final `fsync`);
    /// a stream is closed. Idempotent; never throws.
    public func discard() {
        guard !finished else { return }
        finished = true
        if let atomic { atomic.discard() } else { try? file.close() }
    }

    /// Writes `bytes` as the whole content of `path` (atomically for a regular file, replacing
    /// it; directly for a stream).
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let output = try OutputFile(path: path, mode: .atomic(replace: true))
        try output.write(bytes)
        try output.commit()
    }

    /// Writes `text` as UTF-8 (see ``write(_:to:)-([UInt8],_)``).
    public static func write(_ text: String, to path: String) throws(SystemError) {
        try write(Array(text.utf8), to: path)
    }
}
