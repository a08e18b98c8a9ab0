/// Which recordings of an output directory a session deletes (`--keep N`, `--max-disk SIZE`):
/// the oldest whole recordings (with their summaries and checkpoints), never the one being
/// written. Pure: it is told what the directory holds.
public struct RetentionPolicy: Hashable, Sendable {
    /// Keep at most this many recordings (the current one included).
    public var keep: Int?
    /// Keep the recordings (with their side files) within this many bytes (the current one
    /// included); on a full disk, delete the oldest to make room.
    public var maxDiskBytes: Int64?

    /// Creates a policy (nil: no limit).
    public init(keep: Int? = nil, maxDiskBytes: Int64? = nil) {
        self.keep = keep
        self.maxDiskBytes = maxDiskBytes
    }

    /// Whether the policy deletes anything at all.
    public var isActive: Bool { keep != nil || maxDiskBytes != nil }

    /// A recording to delete, and which limit it is over.
    public struct Victim: Hashable, Sendable {
        /// The recording.
        public var recording: StoredRecording
        /// Over ``RetentionPolicy/keep`` (true) or ``RetentionPolicy/maxDiskBytes`` (false).
        public var overCount: Bool
    }

    /// The recordings to delete now, oldest first, so that at most ``keep`` remain and their
    /// bytes stay within ``maxDiskBytes``. `stored` are the finished recordings (any order),
    /// `current` the one being written (never deleted, counted in both limits).
    public func victims(stored: [StoredRecording], current: StoredRecording?) -> [Victim] {
        var remaining = stored.sorted(by: StoredRecording.olderFirst)
        var victims: [Victim] = []
        let extra = current == nil ? 0 : 1
        if let keep {
            while remaining.count + extra > max(keep, extra), !remaining.isEmpty {
                victims.append(Victim(recording: remaining.removeFirst(), overCount: true))
            }
        }
        if let limit = maxDiskBytes {
            var total = remaining.reduce(current?.bytes ?? 0) { $0 + $1.bytes }
            while total > limit, !remaining.isEmpty {
                let v = remaining.removeFirst()
                total -= v.bytes
                victims.append(Victim(recording: v, overCount: false))
            }
        }
        return victims
    }

    /// On a full disk: the oldest finished recording to delete to make room, when ``maxDiskBytes``
    /// allows deleting (without it a full disk stops the session), else nil.
    public func victimOnDiskFull(stored: [StoredRecording]) -> StoredRecording? {
        guard maxDiskBytes != nil else { return nil }
        return stored.sorted(by: StoredRecording.olderFirst).first
    }
}

/// A finished recording in an output directory, as retention sees it.
public struct StoredRecording: Hashable, Sendable {
    /// The recording's file name (`NAME.csv`).
    public var name: String
    /// Its bytes and its side files'.
    public var bytes: Int64
    /// Its age rank: the modification time (ns since the epoch) of the recording file, or for the
    /// session's own recordings the order they were closed in (they are newer than any found).
    public var modified: Int64

    /// Creates an entry.
    public init(name: String, bytes: Int64, modified: Int64) {
        self.name = name
        self.bytes = bytes
        self.modified = modified
    }

    /// Oldest first: by modification time, then by name.
    public static func olderFirst(_ a: StoredRecording, _ b: StoredRecording) -> Bool {
        a.modified != b.modified ? a.modified < b.modified : a.name < b.name
    }
}
