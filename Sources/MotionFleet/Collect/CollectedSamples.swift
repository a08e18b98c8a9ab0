import MotionCore
import MotionSystem

/// The collector's samples recordings (docs/fleet.md, "Samples"): per board and session,
/// `DIR/<board>/<session>.samples.csv`, a MotionBatch recording written through MotionCore's
/// ``MotionCore/RecordingWriter`` as a journal (created with its header `fsync`ed, rows appended
/// per message, `fsync`ed once per collector pass by ``sync()``), so `motionbatch replay` of it
/// gives the board's steps. Rows are only appended: a message whose first sample is not after
/// the last one written is a duplicate (a redelivery, also one that arrives after a collector
/// restart) and is not written. A collector restarted on an existing recording continues it
/// in `<session>.samples-2.csv` (then `-3`, ...), whose `continues` header entry names the
/// previous part.
final class CollectedSamples {
    private struct Session {
        var writer: RecordingWriter?
        var lastTimestamp: Int64?
        var parts = 0
        var lastName: String?
    }

    /// What happened to one message.
    enum Outcome: Equatable {
        /// Written.
        case written
        /// Its samples are already in the recording.
        case duplicate
    }

    private var sessions: [String: Session] = [:]
    private var touched: Set<String> = []

    /// The file name of `part` (1-based) of `session`'s samples.
    static func fileName(session: String, part: Int) -> String {
        part == 1 ? "\(session).samples.csv" : "\(session).samples-\(part).csv"
    }

    /// The session and part of a samples file name, nil for another file.
    static func parse(fileName name: String) -> (session: String, part: Int)? {
        guard name.hasSuffix(".csv") else { return nil }
        let stem = name.dropLast(4)
        if stem.hasSuffix(".samples") { return (String(stem.dropLast(8)), 1) }
        guard let dash = stem.lastIndex(of: "-"), let part = Int(stem[stem.index(after: dash)...]), part > 1,
              stem[..<dash].hasSuffix(".samples") else { return nil }
        return (String(stem[..<dash].dropLast(8)), part)
    }

    /// Reads back an existing samples file of `board` (at start): its last timestamp and part.
    /// A file the reader refuses keeps its part (the next message starts a new one, nothing is
    /// appended to it) and its timestamps up to the problem.
    /// - Returns: the warning for a file the reader refuses (naming it), nil when it reads.
    func restore(board: String, path: String, name: String) -> String? {
        guard let (session, part) = Self.parse(fileName: name) else { return nil }
        var last: Int64?
        var warning: String?
        do {
            let reader = try RecordingReader(path: path)
            while let chunk = try reader.next() { last = chunk.samples.last?.timestamp ?? last }
        } catch { warning = "cannot read the collected samples \(path): \(error) (kept as it is; the session continues in a new part)" }
        var s = sessions[board + "/" + session] ?? Session()
        if part > s.parts { s.parts = part; s.lastName = name }
        if let l = last { s.lastTimestamp = max(s.lastTimestamp ?? .min, l) }
        sessions[board + "/" + session] = s
        return warning
    }

    /// Appends `samples` of `board`'s `session` under `directory` (the board's).
    /// - Throws: ``MotionCore/RecordingError`` or ``MotionSystem/SystemError`` from the writer
    ///   (nothing written).
    func append(_ samples: FleetSamples, board: String, session: String, directory: String) throws -> Outcome {
        let key = board + "/" + session
        var s = sessions[key] ?? Session()
        defer { sessions[key] = s }
        guard let first = samples.samples.first, first.timestamp > (s.lastTimestamp ?? .min) else { return .duplicate }
        if s.writer == nil {
            if !Directory.exists(directory) { try Directory.create(directory) }
            s.parts += 1
            let name = Self.fileName(session: session, part: s.parts)
            var meta = [RecordingKey.source: "motionbatch collect", "board": board, RecordingKey.session: session]
            if let previous = s.lastName { meta[RecordingKey.continues] = previous }
            s.writer = try RecordingWriter(path: directory + "/" + name, header: RecordingHeader(format: .current, sensors: samples.sensors, metadata: meta),
                                           fsync: .onClose)
            s.lastName = name
        }
        try s.writer!.append(SampleBatch(samples: samples.samples, deliveredAt: samples.samples[samples.samples.count - 1].timestamp))
        s.lastTimestamp = samples.samples.last?.timestamp
        touched.insert(key)
        return .written
    }

    /// Makes what was appended since the last call durable.
    /// - Returns: the problems (`board/session` and one line each).
    func sync() -> [(key: String, problem: String)] {
        var problems: [(key: String, problem: String)] = []
        for k in touched { do { try sessions[k]?.writer?.sync() } catch { problems.append((k, "fsync of \(k) samples failed: \(error)")) } }
        touched.removeAll()
        return problems
    }

    /// Closes `board`'s `session` recording (its summary arrived; a later message opens a new part).
    func close(board: String, session: String) {
        let key = board + "/" + session
        try? sessions[key]?.writer?.close()
        sessions[key]?.writer = nil
        touched.remove(key)
    }

    /// Closes every recording (at the end, or to bound open files).
    func closeAll() {
        for k in sessions.keys {
            try? sessions[k]?.writer?.close()
            sessions[k]?.writer = nil
        }
        touched.removeAll()
    }

    /// Open recordings.
    var openCount: Int { sessions.values.filter { $0.writer != nil }.count }

    /// Forgets `board`'s `session` (its files were deleted by the retention).
    func forget(board: String, session: String) {
        close(board: board, session: session)
        sessions[board + "/" + session] = nil
    }
}
