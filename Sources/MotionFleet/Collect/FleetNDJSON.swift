import MotionCore

/// A collected `<session>.ndjson` file read back (pure: bytes in, lines out): one fleet message
/// per line, each checked by ``FleetMessageSchema`` (the collector's own acceptance). A final
/// line without its newline (an interrupted write) is reported as torn; any other line that is
/// not a fleet message is skipped and reported with its line number and problem (a broken line
/// on disk is reported, never fatal).
public struct FleetNDJSON {
    /// One message.
    public struct Line {
        /// `type`: batch, event or summary.
        public var type: String
        /// `seq`.
        public var sequence: Int
        /// The whole object.
        public var node: JSONNode
    }

    /// A line that is not a fleet message.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        /// The file.
        public var file: String
        /// The line, 1-based.
        public var line: Int
        /// What is wrong with it.
        public var problem: String
        /// `file:line: problem`.
        public var description: String { "\(file):\(line): \(problem)" }
    }

    /// The messages, in file order (batch, event and summary messages).
    public var messages: [Line] = []
    /// The collector's receipts of `samples` messages (their rows are in the samples
    /// recording; the receipt, written after the rows' `fsync`, keeps the session's
    /// ``SamplesChain`` position across a restart): `type` "samples", `seq`, `part`, `parts`,
    /// `prev_seq`, `count`.
    public var samples: [Line] = []
    /// The board's declarations of what its outbox limit dropped of the session (``FleetDrops``;
    /// `type` "drops", `sequence` 0), in file order.
    public var drops: [Line] = []
    /// The lines skipped.
    public var skipped: [Skipped] = []
    /// Bytes of a torn final line.
    public var tornBytes = 0

    /// Parses a file.
    /// - Parameter board: the board whose directory holds the file (each line's `board` must be it).
    /// - Complexity: O(file size).
    public static func parse(_ bytes: [UInt8], file: String, board: String? = nil) -> FleetNDJSON {
        var out = FleetNDJSON()
        var start = 0
        var n = 0
        while start < bytes.count {
            guard let nl = bytes[start...].firstIndex(of: 0x0a) else { out.tornBytes = bytes.count - start; break }
            n += 1
            let line = Array(bytes[start..<nl])
            start = nl + 1
            switch FleetMessageSchema.check(line, board: board, kind: nil) {
            case .success(let m):
                if m.type == FleetMessage.Kind.samples.rawValue {
                    out.samples.append(Line(type: m.type, sequence: m.sequence, node: m.node))
                } else if m.type == FleetMessage.Kind.drops.rawValue {
                    out.drops.append(Line(type: m.type, sequence: 0, node: m.node))
                } else {
                    out.messages.append(Line(type: m.type, sequence: m.sequence, node: m.node))
                }
            case .failure(let r): out.skipped.append(Skipped(file: file, line: n, problem: r.problem))
            }
        }
        return out
    }
}
