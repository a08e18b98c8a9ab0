import MotionCore
import MotionSession
import MotionSystem
import WakeCost

extension CaptureCommand {
    /// The session options of `capture`, checked together.
    struct SessionPlan {
        /// A random id for this run (16 hex digits; pseudonymous, the same in every recording).
        var session: String
        var rotation: RotationPolicy = .never
        var retention = RetentionPolicy()
        var ndjson = false
        var board: BoardProfile?
        var reconnect = false
    }

    /// Parses `--rotate`, `--keep`, `--max-disk`, `--ndjson`, `--board`, `--reconnect`.
    /// - Throws: usage errors: rotation and retention need `--output-dir`; retention needs
    ///   `--rotate` (a recording is only ever deleted whole, so one endless recording could not
    ///   be kept within a limit).
    static func sessionPlan(_ args: ParsedArguments, outputDir: String?) throws(CLIError) -> SessionPlan {
        var plan = SessionPlan(session: newSessionID())
        plan.ndjson = args.flag("ndjson")
        plan.reconnect = args.flag("reconnect")
        if let b = args.string("board") { plan.board = try CLIFiles.board(b) }
        if let r = args.string("rotate") {
            guard outputDir != nil else { throw .usage("'--rotate' needs '--output-dir DIR' (recordings named by their start time).") }
            switch SessionQuantity.parse(r) {
            case .success(.duration(let ns)): plan.rotation = .every(nanoseconds: ns)
            case .success(.size(let bytes)):
                guard bytes >= 4096 else { throw .usage("The value '\(r)' is invalid for '--rotate': a size of at least 4K is needed.") }
                plan.rotation = .size(bytes: bytes)
            case .failure(let e): throw .usage("The value \(e) is invalid for '--rotate'.")
            }
        }
        let keep = try args.int("keep", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000))
        var maxDisk: Int64?
        if let m = args.string("max-disk") {
            switch SessionQuantity.parse(m) {
            case .success(.size(let bytes)): maxDisk = bytes
            case .success(.duration): throw .usage("The value '\(m)' is invalid for '--max-disk': expected a size such as 500M or 2G.")
            case .failure(let e): throw .usage("The value \(e) is invalid for '--max-disk'.")
            }
        }
        if keep != nil || maxDisk != nil {
            guard outputDir != nil else { throw .usage("'--keep' and '--max-disk' need '--output-dir DIR'.") }
            guard plan.rotation != .never else { throw .usage("'--keep' and '--max-disk' need '--rotate': recordings are deleted whole, oldest first.") }
        }
        plan.retention = RetentionPolicy(keep: keep, maxDiskBytes: maxDisk)
        return plan
    }

    /// 16 hex digits from the system's random source.
    static func newSessionID() -> String {
        let s = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// Creates and locks `dir`, finalizes the recordings an earlier session left unfinished
    /// (logged as `recovered`), removes the temporary files of interrupted atomic writes, and
    /// lists the finished recordings for retention.
    /// - Throws: a failure when another session holds the directory or it cannot be created.
    static func prepareDirectory(_ dir: String, board: BoardProfile?, output: inout SessionOutput) throws(CLIError) -> (FileLock?, [StoredRecording]) {
        let lock: FileLock?
        do { lock = try SessionDirectory.lock(dir) } catch {
            throw .failure("cannot use the output directory: \(error)")
        }
        guard let lock else {
            throw .failure("another capture session is writing \(DiagnosticText.quoted(dir)) (it holds \(RecordingNaming.lockName)); stop it or choose another --output-dir")
        }
        let contents: SessionDirectory.Contents
        do { contents = try SessionDirectory.contents(of: dir) } catch { throw .failure("cannot list the output directory: \(error)") }
        for name in contents.leftovers { try? Directory.removeFile(SessionDirectory.path(dir, name)) }
        for name in contents.interrupted {
            let path = SessionDirectory.path(dir, name)
            do {
                let r = try RecordingRecovery.recover(path, board: board)
                output.event(.recovered(name: name, cutBytes: r.cutBytes, samples: r.summary.tally.samples), sequence: 0)
            } catch {
                output.event(.warning("the interrupted recording \(name) could not be recovered: \(error.problem)"), sequence: 0)
            }
        }
        let after = (try? SessionDirectory.contents(of: dir)) ?? contents
        return (lock, after.finished)
    }
}
