#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionIIO
import MotionSession
import MotionSystem

/// `motionbatch capture benchmark`: the capture's whole per-wake-up path as `capture -o FILE`
/// runs it on a terminal — ``MotionIIO/IIOCapture`` driving its machine (poll, drain, decode,
/// repair, gaps), the ``MotionSession/SessionRecorder`` writing and `fsync`ing the recording and
/// its checkpoints, the process counters, the live view, the coalescer and the analysis — fed by a
/// ``MotionIIO/SimulatedDevice`` (a pipe standing in for the IIO buffer, 100 Hz, its own clock).
///
/// Per batch size it measures a window of steady-state wake-ups after a warm-up: the thread's CPU
/// time per sample and per wake-up, and the heap allocations per wake-up when the `alloc-count`
/// shim is loaded (`LD_PRELOAD`, ``MotionSystem/AllocationCounter``; nil otherwise).
enum CaptureBenchmark {
    /// One measurement.
    struct Result {
        /// Scans per batch.
        var batch: Int
        /// Wake-ups (refills with data) in the window.
        var wakeups: Int
        /// Scans read in the window.
        var samples: Int
        /// The capture thread's CPU time in the window, ns.
        var cpuNanoseconds: Int64
        /// Allocations (and reallocations) in the window, nil without the shim.
        var allocations: UInt64?
        /// The whole run: samples delivered, batches, userspace returns, steps counted, recording bytes.
        var totalSamples: Int
        var batches: Int
        var userspaceReturns: Int
        var steps: Int?
        var recordingBytes: Int64

        var nanosecondsPerSample: Double { Double(cpuNanoseconds) / Double(max(1, samples)) }
        var nanosecondsPerWakeup: Double { Double(cpuNanoseconds) / Double(max(1, wakeups)) }
        var allocationsPerWakeup: Double? { allocations.map { Double($0) / Double(max(1, wakeups)) } }
    }

    /// Where recordings go by default: memory (`/dev/shm`) when there is one, so that the
    /// per-batch `fsync` measures the path's CPU, not a disk.
    static var defaultDirectory: String {
        if access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
        return getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    }

    /// Runs the whole path at `batch` scans per wake-up: `warmup` scans, then a window of at
    /// least `samples` scans (whole wake-ups), then one more wake-up; the recording is written in
    /// a fresh directory under `directory` and removed afterwards.
    /// - Throws: ``CLIError`` when the device, the directory or the capture fails.
    /// Without `terminal`, stderr is taken for a file (kernel test 58): no live view, no reports.
    static func run(batch: Int, samples: Int, warmup: Int, directory: String, recording: Bool = true, terminal: Bool = true) throws(CLIError) -> Result {
        let warmupReads = (warmup + batch - 1) / batch
        let reads = max(1, (samples + batch - 1) / batch)
        let device: SimulatedDevice
        do { device = try SimulatedDevice(rateHz: 100, window: .init(warmupReads: warmupReads, reads: reads)) } catch {
            throw .failure("capture benchmark: the simulated device could not be created: \(error)")
        }
        let dir = (directory.hasSuffix("/") ? directory : directory + "/") + "motionbatch-benchmark-\(getpid())-\(batch)"
        guard mkdir(dir, 0o700) == 0 || errno == EEXIST else {
            throw .failure("capture benchmark: cannot create \(dir): \(String(cString: strerror(errno)))")
        }
        defer { removeTree(dir) }
        let path = dir + "/capture.csv"
        let session = CaptureCommand.newSessionID()

        var options = CaptureOptions(rate: 100, batching: .samples(batch), sampleLimit: (warmupReads + reads + 1) * batch)
        options.pauseSignals = true
        var settings = SessionMachine.Settings(session: session)
        // Without a recording: as kernel test 58 runs `capture --batch 1` (no -o).
        settings.output = recording ? .file(path, overwrite: true) : .none
        settings.fsync = .everyBatch
        settings.source = "iio simulated"
        settings.requestedRateHz = 100
        settings.batching = "samples \(batch)"
        settings.analyse = true
        settings.sensors = .accel
        // The live view and the log lines as on a terminal, written to /dev/null.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { throw .failure("capture benchmark: cannot open /dev/null") }
        defer { close(null) }
        var io = CommandIO(writeOut: { _ in }, writeErr: { s in _ = CommandIO.writeAll(null, s) }, stderrIsTerminal: terminal)
        io.writeErrBytes = { _ = CommandIO.writeAll(null, $0) }
        let output = SessionOutput(io: io, log: terminal ? ServiceLog(style: .terminal) : ServiceLog.forStandardError(isTerminal: false), ndjson: false, session: session)
        var recorder = SessionRecorder(settings: settings, observer: output)
        let capture = IIOCapture(simulating: device, options: options)
        let stats: CaptureStatistics
        do { stats = try capture.run(into: &recorder) } catch {
            throw .failure("capture benchmark: the capture failed: \(error)")
        }
        if let f = recorder.machine.failure { throw .failure("capture benchmark: the session failed: \(f)") }
        let w = device.window
        guard w.complete else { throw .failure("capture benchmark: the capture stopped before the window's end (\(stats.samples) samples, \(stats.stopReason.name))") }
        var st = stat()
        let bytes = stat(path, &st) == 0 ? Int64(st.st_size) : 0
        return Result(batch: batch, wakeups: w.reads, samples: w.endScans - w.startScans, cpuNanoseconds: w.endCPU - w.startCPU,
                      allocations: w.allocations, totalSamples: stats.samples, batches: stats.batches,
                      userspaceReturns: stats.userspaceReturns, steps: recorder.machine.steps, recordingBytes: bytes)
    }

    /// Removes the benchmark's directory and the files in it.
    private static func removeTree(_ dir: String) {
        if let d = opendir(dir) {
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { unlink(dir + "/" + name) }
            }
            closedir(d)
        }
        rmdir(dir)
    }

    /// The results as `--json` prints them.
    static func json(_ results: [Result], recording: Bool = true, terminal: Bool = true) -> JSONValue {
        .object([
            ("schema", .number(1)),
            ("path", .string("whole")),
            ("recording", .bool(recording)),
            ("terminal", .bool(terminal)),
            ("shim_loaded", .bool(AllocationCounter.isLoaded)),
            ("results", .array(results.map { r in .object([
                ("batch", .number(r.batch)),
                ("samples", .number(r.samples)),
                ("wakeups", .number(r.wakeups)),
                ("cpu_s", .number(Double(r.cpuNanoseconds) / 1e9)),
                ("ns_per_sample", .number(r.nanosecondsPerSample)),
                ("ns_per_wakeup", .number(r.nanosecondsPerWakeup)),
                ("allocations", r.allocations.map { .int(Int64(clamping: $0)) } ?? .null),
                ("allocations_per_wakeup", .number(r.allocationsPerWakeup)),
                ("total_samples", .number(r.totalSamples)),
                ("batches", .number(r.batches)),
                ("userspace_returns", .number(r.userspaceReturns)),
                ("steps", r.steps.map { .int(Int64($0)) } ?? .null),
                ("recording_bytes", .int(r.recordingBytes)),
            ]) })),
        ])
    }

    /// One line per result.
    static func text(_ r: Result) -> String {
        let allocations = r.allocationsPerWakeup.map { "\(formatFixed($0, 3)) allocations/wake-up (\(r.allocations ?? 0) in \(r.wakeups))" }
            ?? "allocations not counted (no shim: LD_PRELOAD=alloc-count.so, see docs/iio-reader.md)"
        return "batch \(r.batch): \(r.samples) samples in \(r.wakeups) wake-ups, CPU \(formatFixed(Double(r.cpuNanoseconds) / 1e9, 3)) s, "
            + "\(formatFixed(r.nanosecondsPerSample, 1)) ns/sample, \(formatFixed(r.nanosecondsPerWakeup, 0)) ns/wake-up, \(allocations); "
            + "steps \(r.steps.map(String.init) ?? "-")"
    }
}
