import Foundation
import MotionCore
import MotionFleet
import MotionSession
import MotionSystem

/// The publishing options shared by `capture` and `replay` (`--publish URL` and its companions),
/// parsed into a ``MotionFleet/FleetPublisher/Configuration``.
enum PublishOptions {
    /// `--publish`, `--board-id`, `--password-file`, `--ca-file`, `--insecure`, `--outbox`,
    /// `--outbox-max`, `--ack`, `--reconnect-max`, `--status-interval`, `--publish-samples`, `--max-payload`.
    static let options: [OptionSpec] = [
        .option("publish", value: "URL", help: "Publish every batch, event and the summary to an MQTT broker: mqtt://[USER@]HOST[:PORT]/PREFIX (loopback only unless --insecure) or mqtts://... with --ca-file. Topics and schema: docs/fleet.md."),
        .option("board-id", value: "ID", help: "The board's id in the topics (1-64 of A-Z a-z 0-9 - _). Default: a pseudonym derived from /etc/machine-id (not the hostname or a MAC address)."),
        .option("password-file", value: "FILE", help: "With --publish: the password for the URL's user (first line of FILE)."),
        .option("ca-file", value: "FILE", help: "With mqtts://: the CA certificate that signed the broker's certificate (PEM)."),
        .flag("insecure", help: "Allow plain mqtt:// to a host that is not loopback (clear text on the network)."),
        .option("outbox", value: "FILE", help: "The outbox journal (default: fleet.outbox beside the recording; for replay ./motionbatch-<board-id>.outbox)."),
        .option("outbox-max", value: "SIZE", help: "Keep the outbox within SIZE (default 64M; not part of --max-disk: capture warns at start when the two need more than the file system has): the oldest samples messages are dropped first, then the oldest batch messages, then events, counted, reported and declared to the collector (docs/fleet.md); summaries never."),
        .option("ack", value: "MODE", help: "Who must acknowledge a message before it leaves the outbox: collector (default: a collector wrote it to disk; end to end) or broker (the broker took it: the weaker guarantee, for a fleet without a collector)."),
        .flag("publish-samples", help: "With --publish: also publish each batch's samples to PREFIX/<board-id>/samples (the recording's rows; docs/fleet.md, \"Samples\"); collect writes them as a recording."),
        .option("reconnect-max", value: "SECONDS", help: "Cap of the reconnection back-off (default 30)."),
        .option("status-interval", value: "SECONDS", help: "With --publish: send the board's status again (what it sent so far, its last sequence number) in the first batch wake-up SECONDS after the last one (default 60; 1 to 3600), so that a collector knows how far a board that dies got."),
        .option("max-payload", value: "SIZE", help: "With --publish: the largest message sent (1K to 1G, default 32M: collect --max-payload's default and contrib's message_size_limit); a batch's samples are split into several messages to stay within it."),
    ]

    /// The configuration, nil without `--publish`.
    /// - Parameters:
    ///   - defaultOutbox: the outbox path when `--outbox` is not given, from the board id (nil: `--outbox` is required).
    ///   - latencySeconds: the batch latency (the keepalive is at least three of them).
    static func configuration(_ args: ParsedArguments, session: String, latencySeconds: Double,
                              defaultOutbox: (String) -> String?) throws(CLIError) -> FleetPublisher.Configuration? {
        guard let text = args.string("publish") else {
            for o in ["board-id", "password-file", "ca-file", "outbox", "outbox-max", "reconnect-max", "ack", "max-payload", "status-interval"] where args.string(o) != nil {
                throw .usage("'--\(o)' needs '--publish URL'.")
            }
            if args.flag("publish-samples") { throw .usage("'--publish-samples' needs '--publish URL'.") }
            return nil
        }
        let url = try brokerURL(text, insecure: args.flag("insecure"))
        let board = args.string("board-id") ?? FleetTopics.pseudonym(machineID: machineID())
        guard FleetTopics.isValidBoardID(board) else { throw .usage("\(FleetError.invalidBoardID(board)).") }
        let password = try password(args, url: url)
        let ca = try caFile(args, url: url)
        guard let outbox = args.string("outbox") ?? defaultOutbox(board) else {
            throw .usage("'--publish' needs a recording (-o or --output-dir) or '--outbox FILE' for its outbox.")
        }
        var c = FleetPublisher.Configuration(url: url, board: board, session: session, outboxPath: outbox)
        c.password = password
        c.caFile = ca
        c.publishSamples = args.flag("publish-samples")
        if let a = args.string("ack") {
            guard let mode = PublishMachine.AckMode(rawValue: a) else {
                throw .usage("The value '\(DiagnosticText.escaped(a.utf8))' is invalid for '--ack': expected collector or broker.")
            }
            c.settings.ack = mode
        }
        if let m = args.string("outbox-max") {
            switch SessionQuantity.parse(m) {
            case .success(.size(let b)) where b >= 4096: c.settings.outboxMaxBytes = Int(b)
            case .success: throw .usage("The value '\(DiagnosticText.escaped(m.utf8))' is invalid for '--outbox-max': expected a size of at least 4K, such as 50M.")
            case .failure(let e): throw .usage("The value \(e) is invalid for '--outbox-max'.")
            }
        }
        if let m = args.string("max-payload") { c.maxPayloadBytes = try maxPayload(m) }
        if let r = try args.double("reconnect-max", rule: InputLimits.duration.narrowed(to: 1...3600)) { c.settings.reconnectMaxNanoseconds = Int64(r * 1e9) }
        if let r = try args.double("status-interval", rule: InputLimits.duration.narrowed(to: 1...3600)) { c.statusIntervalNanoseconds = Int64(r * 1e9) }
        c.keepaliveSeconds = max(60, Int((3 * latencySeconds).rounded(.up)))
        return c
    }

    /// A `--max-payload` value (1K to 1G), for `collect` and the publishing side alike.
    static func maxPayload(_ m: String) throws(CLIError) -> Int {
        switch SessionQuantity.parse(m) {
        case .success(.size(let b)) where b >= 1024 && b <= 1 << 30: return Int(b)
        case .success: throw .usage("The value '\(DiagnosticText.escaped(m.utf8))' is invalid for '--max-payload': expected a size from 1K to 1G, such as 32M.")
        case .failure(let e): throw .usage("The value \(e) is invalid for '--max-payload'.")
        }
    }

    /// The broker URL of `text`, checked against the privacy rule.
    /// - Throws: a usage error naming the problem (and `--insecure` for a plain remote host).
    static func brokerURL(_ text: String, insecure: Bool) throws(CLIError) -> FleetURL {
        do throws(FleetError) {
            let url = try FleetURL.parse(text)
            try url.checkTransport(insecure: insecure)
            return url
        } catch { throw .usage("\(error.description.prefix(1).uppercased())\(error.description.dropFirst()).") }
    }

    /// The password of `--password-file` (its first line), nil without it.
    static func password(_ args: ParsedArguments, url: FleetURL) throws(CLIError) -> String? {
        guard let f = args.string("password-file") else { return nil }
        guard url.user != nil else { throw .usage("'--password-file' needs a user in the URL (mqtt://USER@HOST/PREFIX).") }
        let bytes = try CLIFiles.read(f)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    /// `--ca-file`, required with `mqtts://` and refused without it.
    static func caFile(_ args: ParsedArguments, url: FleetURL) throws(CLIError) -> String? {
        let ca = args.string("ca-file")
        if ca != nil, !url.tls { throw .usage("'--ca-file' is for mqtts:// URLs.") }
        if url.tls, ca == nil { throw .usage("mqtts:// needs '--ca-file FILE' (the CA that signed the broker's certificate).") }
        if let ca, !FileManager.default.isReadableFile(atPath: ca) { throw .failure("\(ca): cannot be read (the CA file of --ca-file)") }
        return ca
    }

    /// The one-line warning `capture --publish` prints at start when the outbox limit and the
    /// recordings' `--max-disk` need more than their file system has: its free space plus what
    /// the outbox and the recordings already hold there (when the outbox is on another file
    /// system, each limit against its own). Nil when they fit or the space is unknown.
    static func diskWarning(outboxPath: String, outboxMax: Int?, recordingsDir: String?, maxDisk: Int64?) -> String? {
        /// The nearest existing directory at or above `path`.
        func existing(_ path: String) -> String {
            var p = path.isEmpty ? "." : path
            while !Directory.isDirectory(p) {
                guard let slash = p.lastIndex(of: "/") else { return "." }
                p = slash == p.startIndex ? "/" : String(p[..<slash])
            }
            return p
        }
        func held(_ dir: String?) -> Int64 {
            guard let dir, let entries = try? Directory.entries(of: dir) else { return 0 }
            return entries.filter(\.isRegularFile).reduce(0) { $0.addingReportingOverflow($1.size).overflow ? .max : $0 + $1.size }
        }
        let parent = outboxPath.lastIndex(of: "/").map { String(outboxPath[..<$0]) } ?? "."
        let outboxDir = existing(parent)
        let name = outboxPath.split(separator: "/").last.map(String.init) ?? outboxPath
        let outboxHeld = outboxDir == parent ? (try? Directory.entries(of: outboxDir))?.first { $0.name == name && $0.isRegularFile }?.size ?? 0 : 0
        var needs: [(what: String, bytes: Int64, dir: String, held: Int64)] = []
        if let m = outboxMax { needs.append(("--outbox-max \(ProgressBar.bytes(m))", Int64(m), outboxDir, outboxHeld)) }
        if let d = maxDisk, let rec = recordingsDir {
            let dir = existing(rec)
            let held = Directory.isDirectory(rec) ? held(rec) : 0
            let device = { (p: String) in (try? FileIdentity.of(path: p))??.device }
            if let i = needs.indices.first, device(needs[i].dir) == device(dir) {
                needs[i] = (needs[i].what + " and --max-disk \(ProgressBar.bytes(Int(clamping: d)))", needs[i].bytes.addingReportingOverflow(d).overflow ? .max : needs[i].bytes + d,
                            dir, needs[i].held + held)
            } else {
                needs.append(("--max-disk \(ProgressBar.bytes(Int(clamping: d)))", d, dir, held))
            }
        }
        for n in needs {
            guard let free = try? Directory.availableBytes(n.dir) else { continue }
            let have = free.addingReportingOverflow(n.held).overflow ? .max : free + n.held
            if n.bytes > have {
                let verb = n.what.contains(" and ") ? "need" : "needs"
                return "publish: warning: \(n.what) \(verb) \(ProgressBar.bytes(Int(clamping: n.bytes))) on the file system of \(n.dir), which has \(ProgressBar.bytes(Int(clamping: free))) free"
                    + (n.held > 0 ? " besides the \(ProgressBar.bytes(Int(clamping: n.held))) already held there" : "")
                    + ": the disk may fill before the limits apply (the outbox is not part of --max-disk); lower them or free space"
            }
        }
        return nil
    }

    /// `/etc/machine-id` (empty when absent: the pseudonym is then the same on such machines, so
    /// give --board-id there).
    static func machineID() -> String {
        (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Opens the publisher, logging its events on stderr with `io`.
    static func publisher(_ c: FleetPublisher.Configuration, io: CommandIO) throws(CLIError) -> FleetPublisher {
        do {
            let p = try FleetPublisher(c) { io.err($0.description) }
            if p.restored > 0 { io.err("publish: \(p.restored) messages of an earlier run wait in the outbox \(c.outboxPath); they are sent first") }
            return p
        } catch { throw .failure("cannot publish: \(error)") }
    }
}
