import MotionSystem

/// A folder given as a recording: an unzipped export (Sensor Logger's folder of CSV files,
/// phyphox's `Raw Data.csv` with `meta/`). Its regular files and those of its sub-folders (one
/// level down, as an unzipped archive often nests them) are the members.
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
            if e.isRegularFile {
                found.append(e.name)
            } else if Directory.isDirectory(path + "/" + e.name), let inner = try? Directory.entries(of: path + "/" + e.name) {
                found += inner.filter(\.isRegularFile).map { e.name + "/" + $0.name }
            }
        }
        members = found
    }

    public func open(_ member: String) throws -> any RecordingByteSource {
        try RecordingFileSource(path: path + "/" + member)
    }
}
