import MotionSystem

/// Several files that make one recording, as phone apps export them: a zip archive
/// (``ZipArchive``) or a folder (``DirectoryArchive``) holding one CSV per sensor (Sensor Logger's
/// `TotalAcceleration.csv`, `Gyroscope.csv`, ...; phyphox's `Raw Data.csv` and `meta/`). A
/// dialect that reads archives (``RecordingDialect/recognizes(archive:)``) opens the members it
/// needs, each as a streamed ``RecordingByteSource`` named `ARCHIVE/MEMBER` in messages.
public protocol RecordingArchive: AnyObject {
    /// The archive's name in messages (the path given).
    var name: String { get }
    /// The identity of the archive file or folder (so a command never writes over its input).
    var identity: FileIdentity? { get }
    /// The regular files it holds, by their path inside it (`Gyroscope.csv`, `meta/time.csv`), in order.
    var members: [String] { get }
    /// Opens `member` for reading (decompressed as it is read).
    /// - Throws: ``RecordingError`` for a member that cannot be read (unsupported compression,
    ///   encryption), or the system's error.
    func open(_ member: String) throws -> any RecordingByteSource
}

extension RecordingArchive {
    /// The members whose file name (the part after the last `/`) is `fileName`, compared without
    /// regard to case (an export's folder may be nested in the zip).
    public func members(named fileName: String) -> [String] {
        let wanted = fileName.lowercased()
        return members.filter { ($0.split(separator: "/").last.map { $0.lowercased() } ?? "") == wanted }
    }

    /// The one member named `fileName` (see ``members(named:)``), nil when there is none.
    /// - Throws: ``RecordingError`` when there are several (two recordings in one archive).
    public func member(named fileName: String) throws -> String? {
        let found = members(named: fileName)
        guard found.count <= 1 else {
            throw RecordingError(file: name, line: nil, problem: "holds \(found.count) files named \(fileName) (\(found.map { DiagnosticText.quoted($0) }.joined(separator: ", "))): give one recording's folder or zip")
        }
        return found.first
    }

    /// The error opening the first CSV member that cannot be read (encrypted, compressed with a
    /// method MotionBatch does not read, a symlink loop, a device, a socket, a folder), nil when
    /// every one opens: what an archive no dialect recognises is told instead of only listing
    /// the files it holds.
    public func firstUnreadableRecording() -> RecordingError? {
        for m in members where m.lowercased().hasSuffix(".csv") {
            do { _ = try open(m) } catch let e as RecordingError { return e } catch {
                return RecordingError(file: name + "/" + DiagnosticText.escaped(m.utf8), line: nil, problem: "cannot be read: \(error)")
            }
        }
        return nil
    }

    /// Up to `count` bytes from the start of `member` (to recognise its format).
    public func prefix(of member: String, count: Int = RecordingDialects.sniffLength) throws -> [UInt8] {
        let source = try open(member)
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = try out.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress! + done, count: count - done) }
            if n == 0 { break }
            done += n
        }
        out.removeLast(count - done)
        return out
    }
}
