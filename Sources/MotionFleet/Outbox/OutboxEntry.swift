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

    /// Creates an entry.
    public init(id: Int64, kind: FleetMessage.Kind, topic: String, payload: String) {
        self.id = id
        self.kind = kind
        self.topic = topic
        self.payload = payload
    }

    /// Its size in the journal (the `+` line), bytes.
    public var bytes: Int { OutboxRecord.message(self).line.utf8.count }
}
