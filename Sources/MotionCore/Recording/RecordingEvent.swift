/// A moment in a recording that is not a sample: the capture was paused or resumed, the device
/// went away, or the capture continued after the device came back (format version 2,
/// docs/recording-format.md, "Event lines").
///
/// In the file it is one line among the rows, `# event: KIND TIME_NS[ KEY=VALUE]...`, e.g.
/// `# event: pause 1234577499006` or `# event: lost 1240000000000 state=lost`. Its place
/// between two rows is what it means: the row after it does not continue the signal of the row
/// before it (analysis restarts its windows there, ``isInterruption``). `time` is when it happened
/// on the capturing machine's `CLOCK_MONOTONIC` (the rows' clock too, unless a sensor hub stamps
/// the samples with its own).
public struct RecordingEvent: Hashable, Sendable {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The capture was paused on request (buffers disabled, the sensor idle): no rows until
        /// the next `resume`.
        case pause
        /// The capture resumed after a `pause`.
        case resume
        /// The device went away (removed, or the connection to its board broke); `state=` names
        /// the access state found. Nothing follows in this recording but other events.
        case lost
        /// The device came back after a `lost` (in the recording that continues the session,
        /// usually its first line after the header); `lost_at=` is the `lost` event's time.
        case reconnected
    }

    /// What happened.
    public var kind: Kind
    /// When, ns (`CLOCK_MONOTONIC` of the capturing machine).
    public var time: Int64
    /// `key=value` details, in file order (keys `[a-z0-9_]+`; values non-empty, printable, no
    /// spaces).
    public var attributes: [Attribute]
    /// Where it is: the number of data rows before it in the file (the index of the row after
    /// it). Set by ``RecordingReader``; the writer places an event where it is appended.
    public var sampleIndex: Int

    /// One `key=value` detail.
    public struct Attribute: Hashable, Sendable {
        /// `[a-z0-9_]+`.
        public var key: String
        /// Printable, without spaces.
        public var value: String

        /// Creates a detail.
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Creates an event.
    public init(_ kind: Kind, at time: Int64, attributes: [Attribute] = [], sampleIndex: Int = 0) {
        self.kind = kind
        self.time = time
        self.attributes = attributes
        self.sampleIndex = sampleIndex
    }

    /// The value of detail `key`, if present.
    public subscript(key: String) -> String? { attributes.first { $0.key == key }?.value }

    /// Whether the row after the event does not continue the signal before it (a pause, a lost
    /// device): analyzers restart their windows there instead of bridging the interval.
    public var isInterruption: Bool { kind == .pause || kind == .lost }

    /// The line prefix of an event line.
    public static let linePrefix = "# event: "

    /// The event line without its newline: `# event: pause 1234577499006 key=value`.
    public var line: String {
        var s = Self.linePrefix + kind.rawValue + " " + String(time)
        for a in attributes { s += " \(a.key)=\(a.value)" }
        return s
    }

    /// Checks that the event can be written: its time within ``InputLimits/timestampNanoseconds``, keys `[a-z0-9_]+` (unique), values non-empty,
    /// printable (no control characters), without spaces.
    /// - Returns: the problem, or nil.
    public var problem: String? {
        guard InputLimits.containsTimestamp(time) else {
            return "event time \(time) ns is out of range (allowed \(InputLimits.timestampRangeText))"
        }
        var seen: Set<String> = []
        for a in attributes {
            guard !a.key.isEmpty, a.key.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }) else {
                return "event detail key \(DiagnosticText.quoted(a.key)) must be lowercase letters, digits or '_'"
            }
            guard seen.insert(a.key).inserted else { return "event detail '\(a.key)' appears twice" }
            guard !a.value.isEmpty, a.value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !($0.value >= 0x80 && $0.value < 0xA0) }) else {
                return "event detail '\(a.key)' has an empty value or one with spaces or control characters (\(DiagnosticText.quoted(a.value)))"
            }
        }
        return nil
    }

    /// Parses the text of an event line (without its newline, `\r` allowed at the end).
    /// - Returns: the event (``sampleIndex`` 0), or the problem and the 1-based column (field,
    ///   counting the kind as field 1) it is in.
    public static func parse(_ text: Substring) -> Result<RecordingEvent, ParseProblem> {
        var body = text
        guard body.hasPrefix(linePrefix) else {
            return .failure(ParseProblem(column: 1, problem: "a '#' line among the rows must be an event line ('\(linePrefix)KIND TIME_NS [KEY=VALUE]...'), found \(DiagnosticText.quoted(String(text), limit: 60))"))
        }
        body = body.dropFirst(linePrefix.count)
        if body.last == "\r" { body = body.dropLast() }
        let fields = body.split(separator: " ", omittingEmptySubsequences: false)
        guard let kindText = fields.first, !kindText.isEmpty else {
            return .failure(ParseProblem(column: 1, problem: "event line without a kind (expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        guard let kind = Kind(rawValue: String(kindText)) else {
            return .failure(ParseProblem(column: 1, problem: "unknown event \(DiagnosticText.quoted(String(kindText))) (expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        guard fields.count >= 2 else {
            return .failure(ParseProblem(column: 2, problem: "event '\(kind.rawValue)' has no time (expected integer nanoseconds)"))
        }
        guard let time = Int64(fields[1]), fields[1].first != "+" else {
            return .failure(ParseProblem(column: 2, problem: "bad event time \(DiagnosticText.quoted(String(fields[1]))) (expected integer nanoseconds)"))
        }
        guard InputLimits.containsTimestamp(time) else {
            return .failure(ParseProblem(column: 2, problem: "event time \(time) ns is out of range (allowed \(InputLimits.timestampRangeText))"))
        }
        var attributes: [Attribute] = []
        for (i, f) in fields.dropFirst(2).enumerated() {
            guard let eq = f.firstIndex(of: "=") else {
                return .failure(ParseProblem(column: i + 3, problem: "event detail \(DiagnosticText.quoted(String(f))) is not KEY=VALUE"))
            }
            attributes.append(Attribute(String(f[..<eq]), String(f[f.index(after: eq)...])))
        }
        let event = RecordingEvent(kind, at: time, attributes: attributes)
        if let p = event.problem { return .failure(ParseProblem(column: 3, problem: p)) }  // the details
        return .success(event)
    }

    /// Why an event line could not be parsed.
    public struct ParseProblem: Error, Hashable, Sendable {
        /// The 1-based field of the event line at fault (the kind is 1, the time 2, the details
        /// from 3; 1 for a line that is not an event line).
        public var column: Int?
        /// What is wrong.
        public var problem: String
    }
}
