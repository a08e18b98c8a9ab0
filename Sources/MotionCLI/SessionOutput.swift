import MotionCore
import MotionSession

/// What `capture` prints while a session runs: per batch an NDJSON line on stdout (`--ndjson`)
/// and the live view on a terminal's stderr; per event a log line on stderr (``ServiceLog``) and
/// an NDJSON line; at the end the summary as an NDJSON line (`"type": "summary"`). Every line
/// starts with `"schema": N` (docs/schemas/capture-ndjson.schema.json).
struct SessionOutput: SessionObserver {
    var io: CommandIO
    let log: ServiceLog
    let ndjson: Bool
    var live: LiveView?
    /// The events, in order (for tests and the final report).
    private(set) var events: [SessionEvent] = []

    /// The session id for the events' JSON.
    let session: String

    init(io: CommandIO, log: ServiceLog, ndjson: Bool, session: String) {
        self.io = io
        self.session = session
        self.log = log
        self.ndjson = ndjson
        live = log.style == .terminal ? LiveView() : nil
    }

    /// Every report is printed with `--ndjson`; otherwise the live view on a terminal wants one
    /// when its line is due for a redraw, and none is made in between (or without a terminal).
    func wantsBatchReport(endingAt lastSample: Int64) -> Bool { ndjson || (live?.isDue(lastSample) ?? false) }

    /// Joined batches are fine unless every batch is printed (`--ndjson`).
    var acceptsJoinedBatches: Bool { !ndjson }

    /// 250 ms with the live view (redrawn four times a second); 1 s without it (stderr a file or
    /// the journal: nothing is shown per batch, and the per-sample capture's work after its
    /// wake-ups runs once a second).
    var joinedBatchNanoseconds: Int64 { live == nil ? 1_000_000_000 : LiveView.redrawNanoseconds }

    mutating func batch(_ report: BatchReport) {
        if ndjson { io.out(report.json.serialized()) }
        if live != nil, live!.render(report) { live!.drawn.withUnsafeBytes { io.writeErrBytes($0) } }
    }

    mutating func event(_ event: SessionEvent, sequence: Int) {
        events.append(event)
        if live != nil { io.writeErr(live!.clear()) }
        io.err(log.line(event))
        if ndjson { io.out(event.json(session: session, sequence: sequence).serialized()) }
    }

    mutating func finished(_ summary: SessionSummary, sequence: Int) {
        if live != nil { io.writeErr(live!.clear()) }
        if ndjson {
            guard case .object(let members) = summary.json else { return }
            // The summary's own `schema` first, as on every line.
            io.out(JSONValue.object([("schema", .number(SessionSummary.schemaVersion)), ("type", .string("summary")), ("seq", .number(sequence))]
                                    + members.filter { $0.0 != "schema" }).serialized())
        }
    }
}
