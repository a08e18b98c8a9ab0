import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// The outbox journal on disk (the driver's half of ``OutboxJournal``): opened and read back at
/// start (a torn final line is cut off, a leftover temporary file of an interrupted compaction
/// removed), appended to, synced, and replaced atomically (MotionSystem's ``MotionSystem/AtomicFile``)
/// by a compacted copy.
public final class OutboxFile {
    /// The path.
    public let path: String
    private var fd: FileDescriptor

    /// Opens (or creates) the outbox at `path` and reads it.
    /// - Returns: the file and what it holds.
    /// - Throws: ``FleetError`` for a malformed file (naming line and column) or an I/O failure.
    public static func open(_ path: String) throws(FleetError) -> (OutboxFile, OutboxJournal) {
        do {
            var journal = OutboxJournal()
            if Directory.exists(path) {
                let reader = try FileDescriptor.openForReading(path)
                let bytes = try reader.readToEnd()
                try reader.close()
                journal = try Self.parse(bytes, path)
                let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_APPEND)
                if journal.tornBytes > 0 {
                    try fd.truncate(to: Int64(journal.validBytes))
                    try fd.sync()
                }
                if journal.validBytes == 0 {
                    try fd.write(Array((OutboxRecord.header + "\n").utf8))
                    journal.validBytes = OutboxRecord.header.utf8.count + 1
                }
                return (OutboxFile(path: path, fd: fd), journal)
            }
            let fd = try FileDescriptor.create(path, replaceExisting: false)
            try fd.write(Array((OutboxRecord.header + "\n").utf8))
            try fd.sync()
            try FileDescriptor.syncDirectory(containing: path)
            journal.validBytes = OutboxRecord.header.utf8.count + 1
            return (OutboxFile(path: path, fd: fd), journal)
        } catch let e as FleetError {
            throw e
        } catch {
            throw FleetError.io("cannot open the outbox \(path): \(error)")
        }
    }

    private static func parse(_ bytes: [UInt8], _ path: String) throws(FleetError) -> OutboxJournal {
        try OutboxJournal.parse(bytes, file: path)
    }

    private init(path: String, fd: FileDescriptor) {
        self.path = path
        self.fd = fd
    }

    /// Appends records (one `write(2)`, not synced).
    public func append(_ records: [OutboxRecord]) throws(SystemError) {
        guard !records.isEmpty else { return }
        try fd.write(Array(records.map(\.line).joined().utf8))
    }

    /// `fsync(2)`.
    public func sync() throws(SystemError) { try fd.sync() }

    /// Replaces the file atomically by one holding only `entries`, and appends to that one.
    public func compact(_ entries: [OutboxEntry]) throws(SystemError) {
        try AtomicFile.write(OutboxJournal.compacted(entries), to: path)
        let next = try FileDescriptor.open(path, flags: O_WRONLY | O_APPEND)
        try? fd.close()
        fd = next
    }
}
