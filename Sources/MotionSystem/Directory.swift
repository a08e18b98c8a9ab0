#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The directory operations a capture session needs (list, create, remove files), each a thin
/// wrapper over one system call that fails with ``SystemError``.
public enum Directory {
    /// One entry of a directory.
    public struct Entry: Hashable, Sendable {
        /// The file name (no directory).
        public var name: String
        /// Size in bytes (`st_size`).
        public var size: Int64
        /// Whether it is a regular file.
        public var isRegularFile: Bool
        /// Last modification (`st_mtim`), ns since the epoch.
        public var modified: Int64
    }

    /// Where `d_name` starts in a `dirent` record.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The entries of `path` other than `.` and `..`, sorted by name (`opendir`, `readdir`, `fstatat`).
    /// An entry that vanishes while listed is left out.
    /// - Throws: ``SystemError`` from `opendir`.
    public static func entries(of path: String) throws(SystemError) -> [Entry] {
        guard let d = opendir(path) else { throw SystemError.current("opendir", subject: path) }
        defer { closedir(d) }
        let dfd = dirfd(d)
        var out: [Entry] = []
        while let e = readdir(d) {
            // `d_name` read through its address: a record may be shorter than `dirent` (its
            // `d_reclen`), so the struct is never loaded whole.
            let name = String(cString: (UnsafeRawPointer(e) + Self.nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            var st = stat()
            guard fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
            out.append(Entry(name: name, size: Int64(st.st_size), isRegularFile: (st.st_mode & S_IFMT) == S_IFREG, modified: modified))
        }
        return out.sorted { $0.name < $1.name }
    }

    /// Creates directory `path` (`mkdir(2)`, mode 0755 before the umask); an existing directory is fine.
    /// - Throws: ``SystemError`` from `mkdir`, or `ENOTDIR` when `path` names something else.
    public static func create(_ path: String, mode: mode_t = 0o755) throws(SystemError) {
        if mkdir(path, mode) == 0 { return }
        let e = Errno.current
        guard e == .exists else { throw SystemError(e, call: "mkdir", subject: path) }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { throw SystemError(.notDirectory, call: "mkdir", subject: path) }
    }

    /// Removes the file `path` (`unlink(2)`); a file already gone is fine.
    /// - Throws: ``SystemError`` from `unlink`.
    public static func removeFile(_ path: String) throws(SystemError) {
        guard unlink(path) != 0 else { return }
        let e = Errno.current
        if e == .noEntry { return }
        throw SystemError(e, call: "unlink", subject: path)
    }

    /// Bytes an unprivileged process may still write on the file system holding `path`
    /// (`statvfs(3)`: `f_bavail` × `f_frsize`, saturating).
    /// - Throws: ``SystemError`` from `statvfs`.
    public static func availableBytes(_ path: String) throws(SystemError) -> Int64 {
        var st = statvfs()
        guard statvfs(path, &st) == 0 else { throw SystemError.current("statvfs", subject: path) }
        let b = UInt64(st.f_bavail).multipliedReportingOverflow(by: UInt64(st.f_frsize))
        return b.overflow ? .max : Int64(clamping: b.partialValue)
    }

    /// Whether `path` names anything (`access(2)`, `F_OK`).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether `path` is a directory (`stat(2)`).
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }
}
