#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionFleet
import MotionIIO
import MotionSession
import MotionSystem
import WakeCost

/// `motionbatch collect`: the fleet's central side (docs/fleet.md).
enum CollectCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "collect",
            abstract: "Collect what boards publish (capture/replay --publish) from an MQTT broker into per-board files.",
            discussion: """
            Subscribes to PREFIX/+/+ in a persistent session (the broker keeps what arrives while the
            collector is away), deduplicates by (board, session, sequence number) and writes
            DIR/<board>/<session>.ndjson (every batch, event and summary message, one line each),
            DIR/<board>/<session>.summary.json and DIR/<board>/status.json. Every message is
            checked against the fleet schema first (a bad one is counted by reason, nothing of it
            written). After each fsync it acknowledges per board what is on disk (retained, on
            PREFIX/_ack/<board>/<client-id>), so that boards (--ack collector) delete only what a
            collector wrote; its presence is PREFIX/_collector/<client-id>/status. Runs until SIGINT
            or SIGTERM (or --duration); prints its counts on stderr at the end. `collect report DIR`
            makes the fleet report.
            """,
            arguments: [ArgumentSpec("URL", help: "mqtt://[USER@]HOST[:PORT]/PREFIX (loopback only unless --insecure) or mqtts://...")],
            options: [
                .option("output-dir", value: "DIR", help: "Where the per-board files go (created)."),
                .option("password-file", value: "FILE", help: "The password for the URL's user (first line of FILE)."),
                .option("ca-file", value: "FILE", help: "With mqtts://: the CA certificate that signed the broker's certificate (PEM)."),
                .flag("insecure", help: "Allow plain mqtt:// to a host that is not loopback."),
                .option("client-id", value: "ID", help: "The collector's client id, the key of its persistent session (default motionbatch-collector)."),
                .option("retention", value: "DURATION", help: "Delete session files not written to for DURATION (e.g. 30d, 12h); default: keep."),
                .option("duration", value: "SECONDS", help: "Stop after SECONDS (default: until SIGINT/SIGTERM)."),
                .option("reconnect-max", value: "SECONDS", help: "Cap of the reconnection back-off (default 30)."),
                .option("max-payload", value: "SIZE", help: "Reject (count, write nothing of) a message larger than SIZE (default 32M, above the largest message a board makes; set the broker's message_size_limit to match). SIZE + 1K is announced to the broker as the collector's MQTT maximum packet size: a larger message is dropped by the broker, never read."),
                .option("stats-json", value: "FILE", help: "At the end, write the counts (received, written, duplicates, rejected per reason, skipped lines) as JSON to FILE, atomically."),
            ],
            subcommands: [report],
            run: run
        )
    }

    static var report: CommandSpec {
        CommandSpec(
            name: "report",
            abstract: "The fleet report of a collect directory: per board steps, time per activity, wake-ups/h, lost samples, battery estimate, last seen.",
            arguments: [ArgumentSpec("DIR", help: "The directory `collect --output-dir` wrote.")],
            options: [
                .flag("json", help: "Print JSON (keys documented in docs/fleet.md, \"collect report --json\")."),
                .option("html", value: "FILE", help: "Also write a self-contained HTML page (the style of `wakes --html`), atomically."),
                .flag("strict", help: "Exit 1 when a line of the collected files is not a fleet message (by default it is skipped with a warning and counted in skipped_lines)."),
            ],
            run: runReport
        )
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let url = try PublishOptions.brokerURL(args.argument("URL")!, insecure: args.flag("insecure"))
        guard let dir = args.string("output-dir") else { throw CLIError.usage("'collect' needs '--output-dir DIR'.") }
        var c = FleetCollector.Configuration(url: url, outputDir: dir)
        c.password = try PublishOptions.password(args, url: url)
        c.caFile = try PublishOptions.caFile(args, url: url)
        if let id = args.string("client-id") {
            guard FleetTopics.isValidBoardID(id) else { throw CLIError.usage("The value '\(DiagnosticText.escaped(id.utf8))' is invalid for '--client-id': use 1-64 of A-Z a-z 0-9 - _.") }
            c.clientID = id
        }
        if let r = args.string("retention") {
            guard case .success(.duration(let ns)) = SessionQuantity.parse(r) else {
                throw CLIError.usage("The value '\(DiagnosticText.escaped(r.utf8))' is invalid for '--retention': expected a duration such as 30d or 12h.")
            }
            c.retentionNanoseconds = ns
        }
        let duration = try args.double("duration", rule: InputLimits.positiveDuration.narrowed(to: 0...31_536_000))
        if let r = try args.double("reconnect-max", rule: InputLimits.duration.narrowed(to: 1...3600)) { c.reconnectMaxNanoseconds = Int64(r * 1e9) }
        if let m = args.string("max-payload") { c.maxPayloadBytes = try PublishOptions.maxPayload(m) }
        let statsPath = args.string("stats-json")
        do { try SignalPipe.install([SIGINT, SIGTERM]) } catch { throw CLIError.failure("cannot install the signal handlers: \(error)") }
        let localIO = io
        let collector: FleetCollector
        do { collector = try FleetCollector(c) { localIO.err($0) } } catch { throw CLIError.failure("\(error)") }
        let deadline = duration.map { MonotonicClock.nanoseconds() + Int64($0 * 1e9) }
        var signalled = false
        collector.run(deadline: deadline) {
            if !SignalPipe.take().isEmpty { signalled = true }
            return signalled
        }
        let k = collector.counters
        let usage = ProcessCounters.now()
        let cpu = Double(usage.userCPUNanoseconds + usage.systemCPUNanoseconds) / 1e9
        io.err("collect: \(k.received) messages received, \(k.accepted) written, \(k.duplicates) duplicates, \(k.rejected) rejected, \(k.expired) session files expired; CPU \(formatFixed(cpu, 3)) s"
               + (k.received > 0 ? " (\(formatFixed(cpu * 1e6 / Double(k.received), 1)) µs per message)" : ""))
        if k.rejected > 0 { io.err("collect: rejected by reason: \(collector.rejections.summary)") }
        if k.skippedLines > 0 { io.err("collect: \(k.skippedLines) lines of the collected files skipped (not fleet messages; `collect report` lists them)") }
        if let path = statsPath {
            do { try AtomicFile.write(Array((stats(collector, cpuSeconds: cpu).serialized(pretty: true) + "\n").utf8), to: path) } catch {
                throw CLIError.failure("cannot write \(path): \(error)")
            }
        }
    }

    /// The `--stats-json` object (docs/fleet.md, "collect --stats-json").
    static func stats(_ c: FleetCollector, cpuSeconds: Double) -> JSONValue {
        let k = c.counters
        return .object([
            ("received", .number(k.received)), ("written", .number(k.accepted)), ("duplicates", .number(k.duplicates)),
            ("rejected", .number(k.rejected)),
            ("rejected_by_reason", .object(FleetMessageSchema.Reason.allCases.sorted().map { ($0.rawValue, .number(c.rejections.counts[$0] ?? 0)) })),
            ("skipped_lines", .number(k.skippedLines)), ("expired_session_files", .number(k.expired)),
            ("samples_after_gap", .number(k.samplesAfterGap)), ("cpu_s", .number(cpuSeconds)),
        ])
    }

    static func runReport(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let dir = args.argument("DIR")!
        guard Directory.isDirectory(dir) else { throw CLIError.failure("\(dir): not a directory (give the directory `collect --output-dir` wrote)") }
        let report: FleetReport
        do { report = try FleetReport.read(dir) } catch { throw CLIError.failure("\(error)") }
        for s in report.skippedLines.prefix(50) { io.err("warning: \(s) (line skipped)") }
        if report.skippedLines.count > 50 { io.err("warning: \(report.skippedLines.count - 50) more lines skipped") }
        if let path = args.string("html") {
            do { try AtomicFile.write(Array(html(report, dir: dir).utf8), to: path) } catch { throw CLIError.failure("cannot write \(path): \(error)") }
            io.err("wrote \(path)")
        }
        if args.flag("json") {
            io.out(json(report).serialized(pretty: true))
        } else {
            io.writeOut(table(report))
        }
        if args.flag("strict"), !report.skippedLines.isEmpty {
            throw CLIError.failure("\(report.skippedLines.count) lines of \(dir) are not fleet messages (--strict)")
        }
    }

    /// `v` with `digits` decimals, or in exponent form when it is too large for that.
    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "-" }
        return abs(v) < 1e15 ? formatFixed(v, digits) : v.compactText
    }

    // MARK: formatting

    static func cells(_ b: FleetReport.Board) -> [String] {
        func f(_ v: Double?, _ d: Int) -> String { v.map { fixed($0, d) } ?? "-" }
        let sessions = b.knownOnlyFromStatus ? "0 (status only)" : "\(b.sessions)" + (b.unfinishedSessions > 0 ? " (\(b.unfinishedSessions) unfinished)" : "")
        let steps = (b.steps.map(String.init) ?? "-") + (b.unfinishedSteps.map { " (+\($0) unfinished)" } ?? "")
        return [b.board, sessions, "\(b.messages)", "\(b.missing)", "\(b.droppedMessages)", steps,
                b.activitySeconds.filter { $0.1 > 0 }.map { "\($0.0) \(fixed($0.1, 0)) s" }.joined(separator: ", "),
                f(b.schedulerWakeupsPerHour, 0), f(b.deviceWakeupsPerHour, 0), "\(b.lostSamples)", f(b.batteryLifeHours, 1),
                b.state ?? "-", b.lastSeenUTC ?? "-"]
    }

    static let header = ["board", "sessions", "messages", "missing", "dropped", "steps", "activity", "sched wake-ups/h", "device wake-ups/h",
                         "lost samples", "battery h", "state", "last seen (UTC)"]

    static func table(_ r: FleetReport) -> String {
        guard !r.boards.isEmpty else { return "no boards collected yet\n" }
        let rows = [header] + r.boards.map(cells)
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            String(row.enumerated().map { c, v in v + String(repeating: " ", count: widths[c] - v.count) }.joined(separator: "  ")
                .reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n") + "\n" + missingLines(r) + (r.skippedLines.isEmpty ? "" : "skipped lines: \(r.skippedLines.count) (not fleet messages; listed on stderr)\n")
    }

    /// One line per session with missing messages (`missing: b1 session S: 5-9, 12; 3 after the
    /// last received`) and one per session with messages its board dropped (`dropped: b1 session
    /// S: 20-40 (the board's --outbox-max)`).
    static func missingLines(_ r: FleetReport) -> String {
        func list(_ ranges: [ClosedRange<Int>], all: Int) -> String {
            ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
                + (all > ranges.reduce(0) { $0 + $1.count } ? ", ..." : "")
        }
        return r.boards.flatMap { b in b.missingBySession.map { m in
            (m.total == 0 ? "" : "missing: \(b.board) session \(m.session): " + ([m.gaps.isEmpty ? nil : list(m.gaps, all: m.inGaps),
                m.tail > 0 ? "\(m.tail) after the last received" : nil].compactMap { $0 }.joined(separator: "; ")) + "\n")
            + (m.inDropped == 0 ? "" : "dropped: \(b.board) session \(m.session): \(list(m.dropped, all: m.inDropped)) (the board's --outbox-max)\n")
        } }.joined()
    }

    /// The `--json` object (docs/fleet.md, "collect report --json";
    /// docs/schemas/collect-report.schema.json).
    static func json(_ r: FleetReport) -> JSONValue {
        .object([("schema", .number(1)), ("skipped_lines", .number(r.skippedLines.count)), ("boards", .array(r.boards.map { b in .object([
            ("board", .string(b.board)),
            ("sessions", .number(b.sessions)),
            ("finished_sessions", .number(b.finishedSessions)),
            ("unfinished_sessions", .number(b.unfinishedSessions)),
            ("messages", .number(b.messages)),
            ("missing_messages", .number(b.missing)),
            ("dropped_messages", .number(b.droppedMessages)),
            ("missing", .array(b.missingBySession.map { m in .object([
                ("session", .string(m.session)), ("gaps", .array(m.gaps.map { .array([.number($0.lowerBound), .number($0.upperBound)]) })),
                ("in_gaps", .number(m.inGaps)), ("tail", .number(m.tail)),
                ("dropped", .array(m.dropped.map { .array([.number($0.lowerBound), .number($0.upperBound)]) })), ("in_dropped", .number(m.inDropped)),
            ]) })),
            ("outbox_dropped", .number(b.outboxDropped)),
            ("outbox_dropped_taken", .number(b.outboxDroppedTaken)),
            ("known_only_from_status", .bool(b.knownOnlyFromStatus)),
            ("steps", b.steps.map { .number($0) } ?? .null),
            ("unfinished_steps", b.unfinishedSteps.map { .number($0) } ?? .null),
            ("samples", .number(b.samples)),
            ("lost_samples", .number(b.lostSamples)),
            ("activity_time_s", .object(b.activitySeconds.map { ($0.0, .number($0.1)) })),
            ("wakeups_per_hour", .object([("scheduler", .number(b.schedulerWakeupsPerHour)), ("device", .number(b.deviceWakeupsPerHour))])),
            ("battery_life_h", .number(b.batteryLifeHours)),
            ("state", b.state.map { .string($0) } ?? .null),
            ("last_seen_utc", b.lastSeenUTC.map { .string($0) } ?? .null),
        ]) }))])
    }

    static func html(_ r: FleetReport, dir: String) -> String {
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>MotionBatch fleet report</title>
        <style>
        \(WakeReport.stylesheet)
        </style></head><body>
        <h1>MotionBatch fleet report</h1>
        <p class="note">\(r.boards.count) boards collected in \(NumberFormat.xml(dir)). Per board: steps, lost samples and
        activity time summed over its finished sessions (the board's own summary; unfinished sessions' steps so far apart),
        messages missing (gaps and the tail after the last received, against the board's own last sequence number) and the
        messages its outbox limit dropped (declared by the board, not received), wake-ups per hour of the recording's own clock and battery estimate of its latest session, and
        when it was last heard of (the newest message received).</p>
        <table>
        """
        page += "<tr>" + header.enumerated().map { "<th\($0.offset == 0 || $0.offset >= 11 || $0.offset == 6 ? " class=\"l\"" : "")>\(NumberFormat.xml($0.element))</th>" }.joined() + "</tr>\n"
        for b in r.boards {
            page += "<tr>" + cells(b).enumerated().map { "<td\($0.offset == 0 || $0.offset >= 11 || $0.offset == 6 ? " class=\"l\"" : "")>\(NumberFormat.xml($0.element))</td>" }.joined() + "</tr>\n"
        }
        page += "</table>\n"
        let missing = missingLines(r)
        if !missing.isEmpty { page += "<pre>\(NumberFormat.xml(missing))</pre>\n" }
        if !r.skippedLines.isEmpty {
            page += "<p class=\"note\">\(r.skippedLines.count) lines of the collected files are not fleet messages and were skipped (first: \(NumberFormat.xml(r.skippedLines[0].description))).</p>\n"
        }
        page += "</body></html>\n"
        return page
    }
}
