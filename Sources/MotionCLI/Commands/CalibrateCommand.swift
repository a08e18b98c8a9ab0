import MotionCore
import WakeCost

/// `motionbatch calibrate --per-sample FILE.json --batched FILE.json [--board NAME|FILE.json] [--json]
/// [--write-profile FILE]`: derives the per-wake and per-sample CPU costs from two capture-stats
/// files, prints them, and writes the complete calibrated board profile (with provenance) that
/// `wakes --board FILE` reads.
enum CalibrateCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "calibrate",
            abstract: "Derive per-wake and per-sample CPU cost from a per-sample and a batched capture.",
            discussion: """
            Each FILE is a capture-stats JSON object (schema in docs/wake-cost.md): samples,
            userspace_returns, voluntary_ctxt_switches, cpu_time_s, duration_s, device_deliveries.
            Solves cpu_time_s = a * userspace_returns + b * samples for the two captures.
            --write-profile FILE writes the base board's profile with a and b in place of
            userspace_return_s and per_sample_s, every key's source in "sources"; pass it to
            'motionbatch wakes --board FILE'.
            """,
            options: [
                .option("per-sample", value: "FILE", help: "Capture stats of per-sample delivery (one return per sample)."),
                .option("batched", value: "FILE", help: "Capture stats of batched delivery (hardware FIFO preferred)."),
                .option("board", value: "NAME|FILE", help: "Board profile the costs are applied to (default rpi-4b)."),
                .option("write-profile", value: "FILE", help: "Write the complete calibrated board profile (JSON, with sources) to FILE."),
                .flag("json", help: "Print a JSON object instead of text."),
            ],
            run: { args, io in
                guard let perSamplePath = args.string("per-sample") else { throw CLIError.usage("Missing expected option '--per-sample <file>'.") }
                guard let batchedPath = args.string("batched") else { throw CLIError.usage("Missing expected option '--batched <file>'.") }
                let board = try CLIFiles.board(args.string("board") ?? "rpi-4b")
                let p = try CLIFiles.capture(perSamplePath)
                let q = try CLIFiles.capture(batchedPath)
                let cal: Calibration
                do {
                    cal = try Calibration.derive(perSample: p, batched: q)
                } catch {
                    throw CLIError.failure("\(perSamplePath), \(batchedPath): \((error as? WakeCostError)?.problem ?? "\(error)")")
                }
                for w in cal.warnings { io.err("warning: \(w)") }
                let (calibrated, sources) = cal.profile(base: board, captures: "\(perSamplePath) (per-sample) and \(batchedPath) (batched)")
                if let path = args.string("write-profile") {
                    // Only a profile `wakes --board` reads back is written (its values within BoardProfile.rules).
                    do { try calibrated.validate(file: path) } catch { throw CLIError.failure("the calibrated profile cannot be written: \(error)") }
                    try CLIFiles.write(calibrated.json(sources: sources), to: path)
                    io.err("wrote \(path) (use: motionbatch wakes --board \(path))")
                }
                if args.flag("json") {
                    io.out(JSONValue.object([
                        ("schema", .number(1)),
                        ("per_wake_cpu_s", .number(cal.perWakeS)), ("per_sample_cpu_s", .number(cal.perSampleS)),
                        ("board", .string(board.name)), ("userspace_return_s", .number(calibrated.userspaceReturnS)),
                        ("per_sample_s", .number(calibrated.perSampleS)), ("warnings", .array(cal.warnings.map { .string($0) })),
                        ("profile_file", args.string("write-profile").map { .string($0) } ?? .null),
                    ]).serialized())
                } else {
                    io.out("per-wake CPU cost:   \(formatSeconds(cal.perWakeS))   (-> userspace_return_s)")
                    io.out("per-sample CPU cost: \(formatSeconds(cal.perSampleS))   (-> per_sample_s)")
                    io.out("per-sample capture:  \(p.samples) samples, \(p.userspaceReturns) returns, \(p.voluntaryContextSwitches) ctx switches, \(p.cpuTimeS) s CPU")
                    io.out("batched capture:     \(q.samples) samples, \(q.userspaceReturns) returns, \(q.voluntaryContextSwitches) ctx switches, \(q.cpuTimeS) s CPU")
                    if args.string("write-profile") == nil {
                        io.out("Profile \(calibrated.name): \"userspace_return_s\": \(calibrated.userspaceReturnS), \"per_sample_s\": \(calibrated.perSampleS) (--write-profile FILE writes it whole)")
                    }
                }
            })
    }

    static func formatSeconds(_ s: Double) -> String {
        if s >= 1e-3 { return "\(s * 1e3) ms" }
        return "\(s * 1e6) µs"
    }
}
