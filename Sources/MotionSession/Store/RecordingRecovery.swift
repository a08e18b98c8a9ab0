#if canImport(Glibc)
import Glibc
#endif
import MotionAnalysis
import MotionCore
import MotionSystem
import WakeCost

/// Finalizes a recording whose session did not close it (SIGKILL, a power cut, a crash): what
/// `motionbatch recover FILE|DIR` does, and what a session starting in the same directory does
/// first.
///
/// What a crash can leave (docs/session.md, "Crash safety"): the recording's rows up to the last
/// `fsync` (with `--fsync batch`: every batch but the one being written), possibly one torn final
/// line; a checkpoint describing the rows up to the last checkpointed batch (or none); a
/// temporary file of an atomic write. Recovery never rewrites data rows: it may only cut a torn
/// final partial line (`ftruncate` to just after the last newline), then replays the rows
/// through the standard analysis, takes the figures only the process knew from the checkpoint
/// (or reports them as unknown), writes the summary atomically and removes the checkpoint.
public enum RecordingRecovery {
    /// What recovering one recording did.
    public struct Outcome: Sendable {
        /// The recording's path.
        public var path: String
        /// Bytes of a torn final line that were cut (0: none).
        public var cutBytes: Int
        /// The summary written beside it.
        public var summary: SessionSummary
        /// Its path.
        public var summaryPath: String
    }

    /// Why a recording could not be recovered (it is left as it is).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The recording.
        public var path: String
        /// What is wrong.
        public var problem: String
        /// `path: problem`.
        public var description: String { "\(path): \(problem)" }
    }

    /// Recovers the recording at `path`.
    /// - Parameter board: the profile for the summary's battery estimate.
    /// - Throws: ``Failure`` (a header that never got written whole, a malformed row that no
    ///   crash leaves, an I/O error); nothing is changed then, except a torn final line cut.
    public static func recover(_ path: String, board: BoardProfile? = nil) throws(Failure) -> Outcome {
        let cut = try cutTornLine(path)
        if cut == -1 { throw Failure(path: path, problem: "is empty (the session died before its header was written)") }
        if cut == -2 { throw Failure(path: path, problem: "holds no complete line (the header is torn)") }
        let replay: RecordingReplay
        var handles: StandardAnalyzers?
        do {
            replay = try RecordingReplay.run(path: path) { header in
                let (p, h) = try StandardAnalyzers.pipeline(for: header)
                handles = h
                return [ReplaySession(policy: .samples(4096), pipeline: p)]
            }
        } catch {
            throw Failure(path: path, problem: "cannot be read (\(DiagnosticText.sanitized("\(error)"))); it is left as it is")
        }
        let header = replay.header
        let pipeline = replay.sessions[0].pipeline
        let stream = pipeline.result(of: handles!.stream)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let checkpointPath = RecordingNaming.checkpointPath(of: path)
        var warnings: [String] = []
        var checkpoint: SessionCheckpoint?
        if Directory.exists(checkpointPath) {
            do {
                checkpoint = try SessionCheckpoint.decode(try readAll(checkpointPath), file: checkpointPath)
            } catch {
                warnings.append("the checkpoint could not be read (\(error)): wake-ups and CPU time are unknown")
            }
        } else {
            warnings.append("no checkpoint: wake-ups and CPU time are unknown")
        }
        if checkpoint != nil, checkpoint?.recording != name {
            warnings.append("the checkpoint names recording \(checkpoint!.recording), not \(name): not used")
            checkpoint = nil
        }
        var t = checkpoint?.tally ?? SessionTally()
        t.samples = stream.sampleCount
        t.firstSample = stream.firstTimestamp
        t.lastSample = stream.lastTimestamp
        t.gaps = stream.gapCount
        t.lostSamples = Int(stream.estimatedMissingSamples)
        t.steps = pipeline.result(of: handles!.steps).count
        t.events = replay.events.count
        t.pauses = replay.events.filter { $0.kind == .pause }.count
        t.pausedNanoseconds = pausedTime(replay.events)
        t.deviceLosses = replay.events.filter { $0.kind == .lost }.count
        t.lostNanoseconds = 0
        t.bytes = (try? Directory.entries(of: directory(of: path)).first { $0.name == name }?.size) ?? 0
        let sequence = Int(header.metadata[RecordingKey.sequence] ?? "") ?? checkpoint?.sequence ?? 1
        var summary = SessionSummary(scope: .recording(name: name, sequence: sequence),
                                     session: header.metadata[RecordingKey.session] ?? checkpoint?.session ?? "unknown",
                                     complete: false, end: .interrupted, startUTC: header.metadata[RecordingKey.startUTC],
                                     clockSync: header.metadata[RecordingKey.clockSync], bootID: header.metadata[RecordingKey.bootID],
                                     tally: t, figuresAsOf: checkpoint?.tally.lastSample, warnings: warnings + replay.warnings.map(\.description))
        summary.processFiguresKnown = checkpoint != nil
        summary.inferredSteps = handles!.stepSummary(of: pipeline).inferred?.count
        if let board, let c = checkpoint, let cpu = c.tally.cpuNanoseconds {
            summary.battery = BatteryEstimate.measured(on: board, processCPUSeconds: Double(cpu) / 1e9, deviceDeliveries: c.tally.deviceDeliveries,
                                                       durationSeconds: Double(c.tally.elapsedNanoseconds) / 1e9)
        }
        let summaryPath = RecordingNaming.summaryPath(of: path)
        do throws(SystemError) {
            try AtomicFile.write(Array((summary.json.serialized(pretty: true) + "\n").utf8), to: summaryPath)
            try Directory.removeFile(checkpointPath)
        } catch {
            throw Failure(path: path, problem: "the summary could not be written: \(error)")
        }
        return Outcome(path: path, cutBytes: cut, summary: summary, summaryPath: summaryPath)
    }

    /// Time between each `pause` and the `resume` after it, ns (an open pause at the end: 0).
    static func pausedTime(_ events: [RecordingEvent]) -> Int64 {
        var total: Int64 = 0
        var since: Int64?
        for e in events {
            switch e.kind {
            case .pause: since = e.time
            case .resume: if let s = since { total += max(0, e.time - s) }; since = nil
            default: break
            }
        }
        return total
    }

    /// Cuts the bytes after the last newline when the file does not end with one (a torn final
    /// line) and syncs. The header must be whole: a file without a newline after its column
    /// line has nothing to recover.
    /// - Returns: the bytes cut; -1 for an empty file, -2 for one without a newline.
    static func cutTornLine(_ path: String) throws(Failure) -> Int {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, flags: O_RDWR) } catch { throw Failure(path: path, problem: "\(error)") }
        defer { try? fd.close() }
        do throws(SystemError) {
            let size = Int64(try fd.status().st_size)
            guard size > 0 else { return -1 }
            var end = size
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var lastNewline: Int64?
            while end > 0, lastNewline == nil {
                let start = max(0, end - Int64(buffer.count))
                let count = Int(end - start)
                var n = 0
                var failure: SystemError?
                buffer.withUnsafeMutableBytes { b in
                    do throws(SystemError) { n = try fd.read(into: b.baseAddress!, count: count, at: start) } catch { failure = error }
                }
                if let failure { throw failure }
                if let i = buffer[0..<n].lastIndex(of: 0x0A) { lastNewline = start + Int64(i) }
                end = start
            }
            guard let nl = lastNewline else { return -2 }
            let keep = nl + 1
            guard keep < size else { return 0 }
            try fd.truncate(to: keep)
            try fd.sync()
            return Int(size - keep)
        } catch {
            throw Failure(path: path, problem: "\(error)")
        }
    }

    static func readAll(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = try FileDescriptor.openForReading(path)
        defer { try? fd.close() }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while out.count <= 1 << 24 {
            var n = 0
            var failure: SystemError?
            buffer.withUnsafeMutableBytes { b in
                do throws(SystemError) { n = try fd.read(into: b.baseAddress!, count: b.count) } catch { failure = error }
            }
            if let failure { throw failure }
            if n == 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
