import MotionCore

/// The samples of one delivered batch as a `samples` message (`capture/replay --publish
/// --publish-samples`; docs/fleet.md, "Samples"): the fleet envelope (`schema`, `board`, `type`,
/// `session`, `seq` — the batch message's own sequence number), then
/// `"samples_format": 1`, `"count"`, `"columns"` (the recording's column line, e.g.
/// `timestamp_ns,accel_x,accel_y,accel_z`) and `"rows"`: the batch's rows exactly as a MotionBatch
/// recording holds them (MotionCore's ``MotionCore/RecordingEncoder``: integer nanoseconds,
/// shortest round-trip values), newline-terminated, in one JSON string. Decoding reads them back
/// with MotionCore's ``MotionCore/RecordingReader``, so the collector's recording holds exactly
/// the board's samples. Pure (no I/O, no clock).
public struct FleetSamples: Sendable, Equatable {
    /// The version of the `samples` members (`samples_format`).
    public static let formatVersion = 1
    /// The most samples one message carries (a larger batch's samples are not published).
    public static let maxSamples = 100_000

    /// The sensors (columns) the rows hold.
    public var sensors: SensorSet
    /// The samples, in order.
    public var samples: [Sample]
    /// The part of the batch's samples this message is (1-based; `part`, 1 when absent).
    public var part = 1
    /// The parts the batch's samples were split into (`parts`, 1 when absent).
    public var parts = 1
    /// The session's previous samples message's sequence number (`prev_seq`; nil when absent).
    public var previous: Int?

    /// Creates a value.
    public init(sensors: SensorSet, samples: [Sample], part: Int = 1, parts: Int = 1, previous: Int? = nil) {
        self.sensors = sensors
        self.samples = samples
        self.part = part
        self.parts = parts
        self.previous = previous
    }

    /// The header the rows are encoded with and read back in (format version 2, no metadata).
    static func header(_ sensors: SensorSet) -> RecordingHeader { RecordingHeader(format: .current, sensors: sensors) }

    /// Lines before the first row in `header`'s text (format version, channel entries, columns).
    static func encoderHeaderLines(_ header: RecordingHeader) -> Int { header.metadata.count + 2 }

    /// The `samples` message of `batch`, numbered as its batch message (`sequence`), in one part.
    /// - Throws: as ``messages(_:sensors:board:session:sequence:previous:maxPayload:)``.
    public static func message(_ batch: SampleBatch, sensors: SensorSet, board: String, session: String, sequence: Int,
                               previous: Int? = nil) throws(FleetError) -> FleetMessage {
        try messages(batch, sensors: sensors, board: board, session: session, sequence: sequence, previous: previous, maxPayload: .max)[0]
    }

    /// The `samples` messages of `batch`, numbered as its batch message (`sequence`): as few
    /// parts as keep every payload within `maxPayload` bytes (the board's `--max-payload`, the
    /// collector's and the broker's limit), each with whole rows, in order. A message of several
    /// parts carries `"part"` (1-based) and `"parts"`; every message carries `"prev_seq"`, the
    /// sequence number of the session's previous `samples` message (0 for the first), so that
    /// the collector can tell a gap from the next message (``SamplesChain``).
    /// - Parameter previous: the session's previous samples message's sequence number (nil: no
    ///   `prev_seq`, as boards before it).
    /// - Throws: ``FleetError/samples(message:row:column:problem:)`` for an empty or too large
    ///   batch, samples a recording cannot hold (non-increasing timestamps, values out of range),
    ///   or a row that does not fit in `maxPayload` on its own.
    public static func messages(_ batch: SampleBatch, sensors: SensorSet, board: String, session: String, sequence: Int,
                                previous: Int?, maxPayload: Int) throws(FleetError) -> [FleetMessage] {
        let name = "samples of batch \(sequence)"
        guard !batch.samples.isEmpty, batch.count <= maxSamples else {
            throw .samples(message: name, row: nil, column: nil, problem: "a samples message holds 1 to \(maxSamples) samples, not \(batch.count)")
        }
        var rows: [UInt8] = []
        var lines = 2
        do {
            var encoder = try RecordingEncoder(header: header(sensors), path: name)
            lines = encoderHeaderLines(encoder.header)
            try encoder.encode(batch.samples, labels: nil, into: &rows)
        } catch {
            throw .samples(message: name, row: error.line.map { $0 - lines }, column: error.column, problem: error.problem)
        }
        func payload(_ rows: ArraySlice<UInt8>, count: Int, part: Int, parts: Int) -> FleetMessage {
            var members: [(String, JSONValue)] = [("type", .string("samples")), ("session", .string(session)), ("seq", .number(sequence))]
            if let previous { members.append(("prev_seq", .number(previous))) }
            if parts > 1 { members += [("part", .number(part)), ("parts", .number(parts))] }
            members += [("samples_format", .number(formatVersion)), ("count", .number(count)),
                        ("columns", .string(header(sensors).columns.joined(separator: ","))),
                        ("rows", .string(String(decoding: rows, as: UTF8.self)))]
            return FleetMessage.wrap(.samples, board: board, .object(members))
        }
        let whole = payload(rows[...], count: batch.count, part: 1, parts: 1)
        if whole.payload.utf8.count <= maxPayload { return [whole] }
        // Whole rows per part: a row costs its bytes and one more (the newline is `\n` in JSON;
        // nothing else in a row is escaped). The envelope: the empty message, with room for the
        // digits of count, part and parts.
        let envelope = payload([], count: 0, part: 1, parts: 2).payload.utf8.count + 3 * 7
        let room = maxPayload - envelope
        var cuts: [(start: Int, end: Int, count: Int)] = []
        var start = 0, used = 0, count = 0, rowStart = 0
        for (i, b) in rows.enumerated() where b == 0x0a {
            let cost = i + 2 - rowStart
            if cost > room {
                throw .samples(message: name, row: cuts.reduce(0) { $0 + $1.count } + count + 1, column: nil,
                               problem: "a row of \(cost) bytes does not fit in a message of at most \(maxPayload) bytes (--max-payload)")
            }
            if used + cost > room {
                cuts.append((start, rowStart, count))
                start = rowStart
                used = 0
                count = 0
            }
            used += cost
            count += 1
            rowStart = i + 1
        }
        if count > 0 { cuts.append((start, rowStart, count)) }
        let out = cuts.enumerated().map { payload(rows[$1.start..<$1.end], count: $1.count, part: $0 + 1, parts: cuts.count) }
        if let big = out.first(where: { $0.payload.utf8.count > maxPayload }) {
            throw .samples(message: name, row: nil, column: nil, problem: "a part of \(big.payload.utf8.count) bytes is above --max-payload \(maxPayload)")
        }
        return out
    }

    /// Reads a `samples` payload back.
    /// - Parameter name: names the message in errors (e.g. `b1/samples seq 7`).
    /// - Throws: ``FleetError/samples(message:row:column:problem:)`` (the row, 1-based, and
    ///   field where known) for an unknown `samples_format`,
    ///   unknown columns, rows that are not the recording's, a `count` that is not the rows'.
    public static func decode(_ payload: String, name: String) throws(FleetError) -> FleetSamples {
        func bad(_ row: Int?, _ column: Int?, _ p: String) -> FleetError { .samples(message: name, row: row, column: column, problem: p) }
        // Strictly (MotionCore's JSONReader, as FleetMessageSchema): `true` is not a number.
        guard let o = try? JSONReader.parse(Array(payload.utf8), maxBytes: max(payload.utf8.count, 1)), case .object = o.value else {
            throw bad(nil, nil, "the payload is not a JSON object")
        }
        guard case .number(let v)? = o["samples_format"]?.value, v == Double(formatVersion) else {
            let shown = o["samples_format"].map { n -> String in if case .number(let x) = n.value { return x.compactText } else { return n.kindName } }
            throw bad(nil, nil, "unknown samples_format \(shown.map { DiagnosticText.quoted($0) } ?? "(missing)") (this collector reads \(formatVersion))")
        }
        guard case .string(let columns)? = o["columns"]?.value, case .string(let rows)? = o["rows"]?.value, case .number(let c)? = o["count"]?.value,
              c.rounded() == c, abs(c) <= Double(maxSamples) * 2 else {
            throw bad(nil, nil, "a samples message needs \"columns\", \"rows\" and \"count\"")
        }
        let count = Int(c)
        func integer(_ key: String, _ range: ClosedRange<Int>) throws(FleetError) -> Int? {
            guard let n = o[key] else { return nil }
            guard case .number(let v) = n.value, v.rounded() == v, v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
                throw bad(nil, nil, "\"\(key)\" is not an integer \(range.lowerBound)...\(range.upperBound)")
            }
            return Int(v)
        }
        let parts = try integer("parts", 1...maxSamples) ?? 1
        let part = try integer("part", 1...parts) ?? 1
        let previous = try integer("prev_seq", 0...FleetMessageSchema.maxSequence)
        guard let sensors = [SensorSet.accel, [.accel, .gyro]].first(where: { header($0).columns.joined(separator: ",") == columns }) else {
            throw bad(nil, nil, "unknown columns \(DiagnosticText.quoted(columns)) (expected \(header(.accel).columns.joined(separator: ",")) or with gyro_x,gyro_y,gyro_z)")
        }
        guard (1...maxSamples).contains(count), rows.utf8.last == 0x0a else {
            throw bad(nil, nil, "a samples message holds 1 to \(maxSamples) newline-terminated rows (count \(count))")
        }
        let encoder: RecordingEncoder
        do { encoder = try RecordingEncoder(header: header(sensors), path: name) } catch { throw bad(nil, nil, error.problem) }
        let headerLines = encoderHeaderLines(encoder.header)
        var samples: [Sample] = []
        do {
            let reader = try RecordingReader(input: .bytes(encoder.headerText + Array(rows.utf8), name: name), options: RecordingReadOptions(threads: 1))
            while let chunk = try reader.next(maxSamples: maxSamples) {
                guard chunk.events.isEmpty else { throw bad(nil, nil, "the rows hold an event line") }
                samples += chunk.samples
            }
            if let w = reader.warnings.first { throw bad(nil, nil, "\(w)") }
        } catch let e as FleetError {
            throw e
        } catch let e as RecordingError {
            throw bad(e.line.map { $0 - headerLines }, e.column, e.problem)
        } catch {
            throw bad(nil, nil, "\(error)")
        }
        guard samples.count == count else { throw bad(nil, nil, "\"count\" is \(count) but the rows hold \(samples.count) samples") }
        return FleetSamples(sensors: sensors, samples: samples, part: part, parts: parts, previous: previous)
    }
}
