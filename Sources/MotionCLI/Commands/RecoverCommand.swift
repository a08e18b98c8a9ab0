import MotionCore
import MotionSession
import MotionSystem

/// `motionbatch recover FILE|DIR`: finalizes recordings a capture session did not close (SIGKILL,
/// a power cut): cuts a torn final line, writes the summary (analysis replayed from the rows,
/// wake-ups and CPU time from the checkpoint or unknown), removes the checkpoint.
enum RecoverCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "recover",
            abstract: "Finalize recordings left unfinished by a killed capture: cut a torn last line, write their summaries.",
            discussion: """
            FILE: one recording; DIR: every recording in DIR without a NAME.summary.json (and the
            temporary files an interrupted atomic write left). Data rows are never rewritten: only
            a torn final partial line (a power cut inside a write) is cut. The summary's steps and
            activity are replayed from the rows; the figures only the capturing process knew
            (batches, wake-ups, CPU time) come from NAME.checkpoint.json, as of its last batch, or
            are null. A recording still being written (locked by a running capture) is skipped.
            A capture starting with --output-dir DIR does this itself first. Exit status 1 when a
            recording could not be recovered.
            """,
            arguments: [ArgumentSpec("PATH", help: "A recording, or an output directory.")],
            options: [
                .option("board", value: "NAME|FILE", help: "Board profile for the battery estimate (needs a checkpoint)."),
                .flag("force", help: "Recover FILE even if it already has a summary (the summary is rewritten; the rows are not touched)."),
                .flag("json", help: "Print {\"recovered\": [summary...], \"skipped\": [{path, reason}], \"failed\": [{path, problem}]}."),
            ],
            run: { args, io in try run(args, &io) }
        )
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let path = args.argument("PATH")!
        let board = try args.string("board").map { (b: String) throws(CLIError) in try CLIFiles.board(b) }
        var targets: [String] = []
        var skipped: [(String, String)] = []
        if Directory.isDirectory(path) {
            if SessionDirectory.isLocked(path) {
                skipped.append((path, "a capture session is writing this directory: its open recording is left alone"))
            }
            let contents: SessionDirectory.Contents
            do { contents = try SessionDirectory.contents(of: path) } catch { throw CLIError.failure("\(error)") }
            for name in contents.leftovers { try? Directory.removeFile(SessionDirectory.path(path, name)) }
            targets = contents.interrupted.map { SessionDirectory.path(path, $0) }
        } else {
            guard Directory.exists(path) else { throw CLIError.failure("\(DiagnosticText.quoted(path)): no such file or directory") }
            if Directory.exists(RecordingNaming.summaryPath(of: path)), !args.flag("force") {
                skipped.append((path, "already complete (it has a summary; --force rewrites it)"))
            } else {
                targets = [path]
            }
        }
        var recovered: [RecordingRecovery.Outcome] = []
        var failed: [(String, String)] = []
        for t in targets {
            if FileLock.isHeld(t) {
                skipped.append((t, "being written by a running capture"))
                continue
            }
            do {
                recovered.append(try RecordingRecovery.recover(t, board: board))
            } catch {
                failed.append((t, error.problem))
            }
        }
        if args.flag("json") {
            io.out(JSONValue.object([
                ("schema", .number(1)),
                ("recovered", .array(recovered.map { r in
                    guard case .object(let m) = r.summary.json else { return .null }
                    return .object([("path", .string(r.path)), ("cut_bytes", .number(r.cutBytes)), ("summary_path", .string(r.summaryPath))] + m)
                })),
                ("skipped", .array(skipped.map { .object([("path", .string($0.0)), ("reason", .string($0.1))]) })),
                ("failed", .array(failed.map { .object([("path", .string($0.0)), ("problem", .string($0.1))]) })),
            ]).serialized(pretty: true))
        } else {
            for r in recovered {
                let t = r.summary.tally
                io.out("\(r.path): recovered: \(t.samples) samples, \(t.steps.map(String.init) ?? "no") steps"
                       + (r.cutBytes > 0 ? ", a torn final line of \(r.cutBytes) bytes cut" : "")
                       + (r.summary.processFiguresKnown ? "" : ", wake-ups and CPU time unknown (no checkpoint)")
                       + "; summary \(r.summaryPath)")
            }
            for (p, why) in skipped { io.out("\(p): skipped: \(why)") }
            if recovered.isEmpty && skipped.isEmpty && failed.isEmpty { io.out("\(path): nothing to recover") }
        }
        for (p, problem) in failed { io.err("Error: \(DiagnosticText.sanitized(p)): \(DiagnosticText.sanitized(problem))") }
        if !failed.isEmpty { throw CLIError.failure("\(failed.count) recording\(failed.count == 1 ? "" : "s") could not be recovered") }
    }
}
