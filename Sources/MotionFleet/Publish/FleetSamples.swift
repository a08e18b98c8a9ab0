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

    /// Creates a value.
    public init(sensors: SensorSet, samples: [Sample]) {
        self.sensors = sensors
        self.samples = samples
    }

    /// The header the rows are encoded with and read back in (format version 2, no metadata).
    static func header(_ sensors: SensorSet) -> RecordingHeader { RecordingHeader(format: .current, sensors: sensors) }

    /// Lines before the first row in `header`'s text (format version, channel entries, columns).
    static func encoderHeaderLines(_ header: RecordingHeader) -> Int { header.metadata.count + 2 }

    /// The `samples` message of `batch`, numbered as its batch message (`sequence`).
    /// - Throws: ``FleetError/samples(message:row:column:problem:)`` for an empty or too large
    ///   batch, or samples a recording cannot hold (non-increasing timestamps, values out of range).
    public static func message(_ batch: SampleBatch, sensors: SensorSet, board: String, session: String, sequence: Int) throws(FleetError) -> FleetMessage {
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
        return FleetMessage.wrap(.samples, board: board, .object([
            ("type", .string("samples")), ("session", .string(session)), ("seq", .number(sequence)),
            ("samples_format", .number(formatVersion)), ("count", .number(batch.count)),
            ("columns", .string(header(sensors).columns.joined(separator: ","))),
            ("rows", .string(String(decoding: rows, as: UTF8.self))),
        ]))
    }

    /// Reads a `samples` payload back.
    /// - Parameter name: names the message in errors (e.g. `b1/samples seq 7`).
    /// - Throws: ``FleetError/samples(message:row:column:problem:)`` (the row, 1-based, and
    ///   field where known) for an unknown `samples_format`,
    ///   unknown columns, rows that are not the recording's, a `count` that is not the rows'.
    public static func decode(_ payload: String, name: String) throws(FleetError) -> FleetSamples {
        func bad(_ row: Int?, _ column: Int?, _ p: String) -> FleetError { .samples(message: name, row: row, column: column, problem: p) }
        // Strictly (MotionCore's JSONReader, as FleetMessageSchema): `true` is not a number.
        guard let o = try? JSONReader.parse(Array(payload.utf8), maxBytes: FleetMessageSchema.defaultMaxPayload), case .object = o.value else {
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
        return FleetSamples(sensors: sensors, samples: samples)
    }
}
