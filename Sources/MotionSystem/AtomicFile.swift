#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A regular file written completely under a temporary name and then put in place in one step,
/// so that the file at its final path is always either the previous one or the new one, whole.
///
/// - Creation: a temporary file `.NAME.XXXXXXXX.tmp` is created exclusively (`O_EXCL`, random
///   suffix) in the same directory, so that the rename stays within one file system.
/// - ``commit()``: `fsync(2)` of the data, then `rename(2)` over the final path (replacing) or
///   `link(2)` + `unlink(2)` of the temporary name (not replacing: fails with `EEXIST` if a file
///   appeared meanwhile), then `fsync(2)` of the directory so that the new entry survives a
///   power cut.
/// - Any failure, ``discard()``, or releasing the object before ``commit()`` removes the
///   temporary file; the file at the final path is never touched until the rename. A process
///   killed between creation and commit leaves the temporary file: ``isTemporaryName(_:)``
///   recognises such leftovers.
public final class AtomicFile {
    /// What to do when the final path already names a file.
    public enum Existing: Sendable {
        /// Fail with `EEXIST` (at commit).
        case refuse
        /// Replace it (atomically, at commit).
        case replace
    }

    /// The final path.
    public let path: String
    /// The temporary file's path (in ``path``'s directory).
    public let temporaryPath: String
    /// The policy for an existing file.
    public let existing: Existing

    private let file: FileDescriptor
    private var finished = false

    /// Creates the temporary file for `path`.
    /// - Parameter mode: permission bits of the new file (before the umask).
    /// - Throws: ``SystemError`` from `open` (`EEXIST` only if no free temporary name was found).
    public init(path: String, existing: Existing, mode: mode_t = 0o644) throws(SystemError) {
        self.path = path
        self.existing = existing
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let base = String(decoding: name.utf8.prefix(200), as: UTF8.self)
        var created: (FileDescriptor, String)?
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let candidate = directory + ".\(base).\(suffix).tmp"
            do throws(SystemError) {
                created = (try FileDescriptor.open(candidate, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode), candidate)
                break
            } catch {
                if error.errno == .exists { continue }
                throw error
            }
        }
        guard let (fd, tmp) = created else { throw SystemError(.exists, call: "open", subject: path, message: "no free temporary name") }
        file = fd
        temporaryPath = tmp
    }

    deinit { discard() }

    /// Appends `bytes` to the temporary file; the file is discarded if the write fails.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        precondition(!finished, "AtomicFile written after commit or discard")
        do { try file.write(bytes) } catch { discard(); throw error }
    }

    /// Makes the written content the file at ``path``: `fsync`, `close`, rename (or link) into
    /// place, `fsync` of the directory. Idempotent once it succeeded.
    /// - Throws: ``SystemError`` from any step; before the rename the temporary file is removed
    ///   and the final path is untouched.
    public func commit() throws(SystemError) {
        guard !finished else { return }
        do throws(SystemError) {
            try file.sync()
            try file.close()
            switch existing {
            case .replace:
                guard rename(temporaryPath, path) == 0 else { throw SystemError.current("rename", subject: path) }
            case .refuse:
                guard link(temporaryPath, path) == 0 else { throw SystemError.current("link", subject: path) }
                _ = unlink(temporaryPath)
            }
        } catch {
            discard()
            throw error
        }
        finished = true
        try FileDescriptor.syncDirectory(containing: path)
    }

    /// Closes and removes the temporary file unless committed. Idempotent; never throws.
    public func discard() {
        guard !finished else { return }
        finished = true
        try? file.close()
        _ = unlink(temporaryPath)
    }

    /// Writes `bytes` to `path` atomically (create, write, ``commit()``), replacing or refusing an
    /// existing file as `existing` says.
    public static func write(_ bytes: [UInt8], to path: String, existing: Existing = .replace) throws(SystemError) {
        let file = try AtomicFile(path: path, existing: existing)
        try file.write(bytes)
        try file.commit()
    }

    /// Whether a file name (no directory) is one of this type's temporary names
    /// (`.NAME.HEX.tmp`), as left by a process killed before its commit.
    public static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let inner = name.dropFirst().dropLast(4)
        guard let dot = inner.lastIndex(of: "."), dot != inner.startIndex else { return false }
        let suffix = inner[inner.index(after: dot)...]
        return !suffix.isEmpty && suffix.count <= 16 && suffix.allSatisfy(\.isHexDigit)
    }
}
