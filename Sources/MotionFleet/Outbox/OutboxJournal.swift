import MotionCore
/// What an outbox file holds, read back (pure: bytes in, entries out): the messages not yet
/// acknowledged, dropped or refused, in order; the next free id; a torn final line (a crash in
/// the middle of an append) cut off; how much of the file is dead (records of finished messages),
/// which decides compaction.
public struct OutboxJournal: Sendable, Equatable {
    /// Messages still to send, oldest first.
    public var entries: [OutboxEntry] = []
    /// The next id to use.
    public var nextID: Int64 = 1
    /// Bytes of a final line without its newline (cut when the file is reopened).
    public var tornBytes = 0
    /// Bytes of the valid part of the file.
    public var validBytes = 0
    /// Messages dropped by `--outbox-max` so far (in this file).
    public var dropped = 0

    /// Creates an empty journal.
    public init() {}

    /// Parses a whole outbox file.
    /// - Throws: ``FleetError/malformed(file:line:column:problem:)`` for a line that is not a
    ///   record (a torn final line is not an error) or a file without the header.
    /// - Complexity: O(file size).
    public static func parse(_ bytes: [UInt8], file: String) throws(FleetError) -> OutboxJournal {
        var j = OutboxJournal()
        var live: [Int64: Int] = [:]   // id -> index in `all`
        var all: [OutboxEntry?] = []
        var start = 0
        var lineNumber = 0
        while start < bytes.count {
            guard let nl = bytes[start...].firstIndex(of: 0x0a) else {
                j.tornBytes = bytes.count - start
                break
            }
            lineNumber += 1
            let text = String(decoding: bytes[start..<nl], as: UTF8.self)
            if lineNumber == 1 {
                guard text == OutboxRecord.header else {
                    throw .malformed(file: file, line: 1, column: 1, problem: "not a MotionBatch outbox (expected \(DiagnosticText.quoted(OutboxRecord.header)))")
                }
            } else {
                switch try OutboxRecord.parse(Substring(text), file: file, lineNumber: lineNumber) {
                case .message(let e):
                    guard e.id >= j.nextID else {
                        throw .malformed(file: file, line: lineNumber, column: 3, problem: "message id \(e.id) is not above the previous ones")
                    }
                    live[e.id] = all.count
                    all.append(e)
                    j.nextID = e.id + 1
                case .atBroker(let id):
                    if let k = live[id] { all[k]?.atBroker = true }
                case .acknowledged(let id), .refused(let id):
                    if let k = live.removeValue(forKey: id) { all[k] = nil }
                case .dropped(let id):
                    if let k = live.removeValue(forKey: id) { all[k] = nil; j.dropped += 1 }
                }
            }
            start = nl + 1
            j.validBytes = start
        }
        j.entries = all.compactMap { $0 }
        return j
    }

    /// The contents of a compacted file holding `entries`.
    public static func compacted(_ entries: [OutboxEntry]) -> [UInt8] {
        var s = OutboxRecord.header + "\n"
        for e in entries {
            var plain = e
            plain.atBroker = false
            s += OutboxRecord.message(plain).line
            if e.atBroker { s += OutboxRecord.atBroker(e.id).line }
        }
        return Array(s.utf8)
    }
}
