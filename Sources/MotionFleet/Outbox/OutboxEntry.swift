import MotionCore
/// A message waiting in the outbox: its outbox-wide id (increasing across sessions), its kind,
/// its topic and its payload.
public struct OutboxEntry: Sendable, Equatable {
    /// The id (the journal's key; not the message's session sequence number).
    public var id: Int64
    /// The kind.
    public var kind: FleetMessage.Kind
    /// The topic it goes to.
    public var topic: String
    /// The payload, one line of JSON.
    public var payload: String
    /// The broker acknowledged it (`--ack collector`: it stays until a collector acknowledges it).
    public var atBroker = false

    /// Creates an entry.
    public init(id: Int64, kind: FleetMessage.Kind, topic: String, payload: String, atBroker: Bool = false) {
        self.id = id
        self.kind = kind
        self.topic = topic
        self.payload = payload
        self.atBroker = atBroker
    }

    /// Its session id, sequence number and part (a `samples` message's `part`, else 1), read
    /// from the payload (nil for a payload without them).
    public var position: (session: String, sequence: Int, part: Int)? {
        place.map { ($0.session, $0.sequence, $0.part) }
    }

    /// ``position`` and the parts of its batch's samples (`parts`, else 1).
    public var place: (session: String, sequence: Int, part: Int, parts: Int)? {
        let bytes = Array(payload.utf8)
        guard let node = try? JSONReader.parse(bytes, maxBytes: max(bytes.count, 1)),
              case .string(let session)? = node["session"]?.value, case .number(let seq)? = node["seq"]?.value,
              seq >= 1, seq <= Double(FleetMessageSchema.maxSequence), seq.rounded() == seq else { return nil }
        func small(_ key: String) -> Int? {
            guard case .number(let p)? = node[key]?.value, p >= 1, p <= Double(FleetSamples.maxSamples), p.rounded() == p else { return nil }
            return Int(p)
        }
        let part = small("part") ?? 1
        return (session, Int(seq), part, max(small("parts") ?? 1, part))
    }

    /// Its size in the journal (the `+` line), bytes.
    public var bytes: Int { OutboxRecord.message(self).line.utf8.count }
}
