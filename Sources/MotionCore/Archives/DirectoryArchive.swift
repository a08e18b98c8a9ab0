#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// A folder given as a recording: an unzipped export (Sensor Logger's folder of CSV files,
/// phyphox's `Raw Data.csv` with `meta/`). Its files and those of its sub-folders (one level
/// down, as an unzipped archive often nests them) are the members.
///
/// Entries that are not regular files (a symbolic link, a socket, a device, a named pipe, and a
/// folder named like a data file, `TotalAcceleration.csv/`) are members too, so that a dialect
/// that needs one is told what it is (``open(_:)``) instead of reading the export without it.
public final class DirectoryArchive: RecordingArchive {
    public let name: String
    public let identity: FileIdentity?
    public let members: [String]
    private let path: String

    /// Lists the folder at `path`.
    /// - Throws: ``SystemError`` when it cannot be listed.
    public init(path: String) throws(SystemError) {
        self.path = path
        name = path
        identity = try? FileIdentity.of(path: path)
        var found: [String] = []
        for e in try Directory.entries(of: path) {
            let full = path + "/" + e.name
            if e.isRegularFile || Self.isMemberLike(e.name) || !Directory.isDirectory(full) {
                found.append(e.name)
            } else if let inner = try? Directory.entries(of: full) {
                found += inner.filter { $0.isRegularFile || Self.isMemberLike($0.name) || !Directory.isDirectory(full + "/" + $0.name) }
                    .map { e.name + "/" + $0.name }
            }
        }
        members = found
    }

    /// Whether `name` looks like a data file (`.csv`, `.txt`, `.json`), whatever it is.
    private static func isMemberLike(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".csv", ".txt", ".json"].contains { lower.hasSuffix($0) }
    }

    /// Opens `member`, which must be (or link to) a regular file.
    /// - Throws: ``RecordingError`` naming what it is instead (a symbolic link loop or a dangling
    ///   one, a folder, a socket, a device, a named pipe); ``SystemError`` from `open`.
    public func open(_ member: String) throws -> any RecordingByteSource {
        let full = path + "/" + member
        // Named in messages with its bytes escaped (a file name is any bytes but `/` and NUL).
        let shown = path + "/" + DiagnosticText.escaped(member.utf8)
        var st = stat()
        guard stat(full, &st) == 0 else {
            let error = SystemError.current("stat", subject: full)
            var link = stat()
            let isLink = lstat(full, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
            switch error.errno.rawValue {
            case ELOOP:
                throw RecordingError(file: shown, line: nil, problem: "is a symbolic link loop (it leads back to itself), not a file: replace it with the export's file")
            case ENOENT where isLink:
                throw RecordingError(file: shown, line: nil, problem: "is a symbolic link to nothing (its target is missing): replace it with the export's file")
            default:
                throw error
            }
        }
        let what: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return RecordingFileSource(file: try FileDescriptor.openForReading(full), name: shown)
        case S_IFDIR: what = "a folder"
        case S_IFSOCK: what = "a socket"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFIFO: what = "a named pipe (FIFO)"
        default: what = "not a regular file"
        }
        throw RecordingError(file: shown, line: nil, problem: "is \(what) where the export has a file: replace it with the export's file, or remove it")
    }
}
