#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The directory entry a path finally names once the symbolic links in its last component are
/// followed (`lstat(2)` and `readlink(2)`, at most 40 links, as the kernel allows), split into
/// directory and name. An atomic replacement renames over this entry, so that a symlinked output
/// keeps its link and the file it points to gets the new content. Links in the directories of
/// the path need no resolution: `rename(2)` within one directory path works through them.
public struct ResolvedPath: Hashable, Sendable {
    /// The resolved path (`directory/name`, or `name` relative to the working directory).
    public var path: String
    /// The directory holding the entry (`.` for a bare name).
    public var directory: String
    /// The entry's name within ``directory``.
    public var name: String

    /// Creates a resolved path from its parts.
    public init(path: String, directory: String, name: String) {
        self.path = path
        self.directory = directory
        self.name = name
    }

    /// Most symbolic links followed before giving up with `ELOOP` (the kernel's own limit).
    public static let maxLinks = 40

    /// Follows the symbolic links of `path`'s last component.
    /// - Throws: ``SystemError`` with `ELOOP` for a cycle, `ENAMETOOLONG`, or the failing
    ///   `lstat`/`readlink`; a missing final entry (even behind a dangling link) is not an error.
    public static func resolve(_ path: String) throws(SystemError) -> ResolvedPath {
        guard !path.isEmpty else { throw SystemError(.noEntry, call: "lstat", subject: "''") }
        var current = path
        for _ in 0...maxLinks {
            var st = stat()
            if lstat(current, &st) != 0 {
                if Errno.current == .noEntry { return split(current) }
                throw SystemError.current("lstat", subject: current)
            }
            guard (st.st_mode & S_IFMT) == S_IFLNK else { return split(current) }
            let target = try readLink(current)
            if target.hasPrefix("/") {
                current = target
            } else {
                let parent = split(current).directory
                current = parent == "." ? target : parent + "/" + target
            }
        }
        throw SystemError(Errno(ELOOP), call: "readlink", subject: path)
    }

    /// `path` cut at its last `/` (trailing slashes kept in the name, so that a directory is
    /// reported as such by the call that meets it).
    static func split(_ path: String) -> ResolvedPath {
        guard let slash = path.lastIndex(of: "/") else { return ResolvedPath(path: path, directory: ".", name: path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return ResolvedPath(path: path, directory: directory, name: String(path[path.index(after: slash)...]))
    }

    /// The target of the symbolic link at `path` (`readlink(2)`).
    static func readLink(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { throw SystemError.current("readlink", subject: path) }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
