#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionSystem

/// `motionbatch bench <subcommand>`: benchmarks that print the figures the README quotes.
/// A command group; each benchmark is one entry of ``subcommands``.
enum BenchCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "bench",
            abstract: "Measure the speed and memory of MotionBatch's parts.",
            subcommands: subcommands
        )
    }

    /// The benchmarks, in the order help lists them. Add one line per benchmark.
    static var subcommands: [CommandSpec] {
        [
            parse,
            BenchStepsCommand.spec,
            BenchActivityCommand.spec,
            BenchFleetCommand.spec,
        ]
    }

    /// `motionbatch bench parse FILE`: parse throughput (MB/s, samples/s) and peak memory of ``RecordingReader``.
    static var parse: CommandSpec {
        CommandSpec(
            name: "parse",
            abstract: "Parse a recording and print MB/s, samples/s and peak memory.",
            discussion: """
            Streams FILE through RecordingReader and reports the parse throughput in MB/s (10^6 bytes)
            and samples/s, and the process's peak resident memory (VmHWM of /proc/self/status; also
            getrusage ru_maxrss). By default the samples come as the reader's parsed blocks
            (RecordingReader.next, handed over without copying); with --chunk N they are copied into
            one reused array N samples at a time (RecordingReader.read(into:)). With --repeat N the
            best of N runs is reported. The samples are judged by the plausibility rule as every command
            judges them (docs/bad-input.md); --no-plausibility measures the parse alone.
            JSON keys: file, bytes, samples, seconds, mb_per_s, samples_per_s, peak_rss_mib,
            ru_maxrss_mib, runs, threads, chunk (null for whole blocks), block_kib.
            """,
            arguments: [ArgumentSpec("FILE", help: "A recording (MotionBatch format or plain CSV).")],
            options: [
                .option("chunk", value: "N", help: "Copy the samples into a reused array N at a time (default: take the parsed blocks as they are)."),
                .option("repeat", value: "N", help: "Runs; the fastest is reported (default 1)."),
                .option("threads", value: "N", help: "Reader threads (default: 2 on a machine with 2+ processors, else 1)."),
                .option("block-kib", value: "N", help: "Bytes per block read and parsed at once, in KiB (default \(RecordingReader.defaultBufferSize / 1024))."),
                .flag("no-plausibility", help: "Do not apply the plausibility rule (the commands always do)."),
                .flag("json", help: "Print one JSON object."),
            ],
            run: { args, io in try runParse(args, &io) }
        )
    }

    static func runParse(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let path = args.argument("FILE")!
        let chunk = try args.int("chunk", rule: InputLimits.positiveCount.narrowed(to: 1...10_000_000))
        let runs = try args.int("repeat", rule: InputLimits.positiveCount.narrowed(to: 1...100)) ?? 1
        let threads = try args.int("threads", rule: InputLimits.positiveCount.narrowed(to: 1...64)) ?? RecordingReader.defaultThreadCount
        let blockSize = (try args.int("block-kib", rule: InputLimits.positiveCount.narrowed(to: 4...65_536))).map { $0 * 1024 } ?? RecordingReader.defaultBufferSize
        var best = Double.infinity
        var bytes = 0
        var count = 0
        var checksum = 0.0
        do {
            for _ in 0..<runs {
                let start = MonotonicClock.seconds()
                let reader = try RecordingReader(input: .path(path), options: RecordingReadOptions(
                    bufferSize: blockSize, threads: threads, plausibility: args.flag("no-plausibility") ? nil : InputOptions.none.plausibility))
                count = 0
                if let chunk {
                    var samples: [Sample] = []
                    samples.reserveCapacity(chunk)
                    var labels: [String?] = []
                    while true {
                        samples.removeAll(keepingCapacity: true)
                        labels.removeAll(keepingCapacity: true)
                        let n = try reader.read(into: &samples, labels: &labels, maxSamples: chunk)
                        if n == 0 { break }
                        count += n
                        checksum += samples[n - 1].accel.x
                    }
                } else {
                    while let block = try reader.next(maxSamples: .max) {
                        count += block.samples.count
                        checksum += block.samples[block.samples.count - 1].accel.x
                    }
                }
                best = min(best, MonotonicClock.seconds() - start)
                bytes = reader.bytesRead
                WarningReport.print(reader.warnings, to: io)
            }
        } catch let error as RecordingError {
            throw CLIError.failure("\(error)")
        } catch let error as SystemError {
            throw CLIError.failure("\(error)")
        }
        let mbPerSecond = Double(bytes) / 1e6 / best
        let samplesPerSecond = Double(count) / best
        let peakMiB = peakResidentMiB()
        _ = checksum
        if args.flag("json") {
            io.out("{\"schema\":1,\"file\":\(JSONValue.quoted(path)),\"bytes\":\(bytes),\"samples\":\(count),\"seconds\":\(fmt(best, 4)),\"mb_per_s\":\(fmt(mbPerSecond, 1)),\"samples_per_s\":\(Int(samplesPerSecond.rounded())),\"peak_rss_mib\":\(fmt(peakMiB, 1)),\"ru_maxrss_mib\":\(fmt(ruMaxRSSMiB(), 1)),\"runs\":\(runs),\"threads\":\(threads),\"chunk\":\(chunk.map(String.init) ?? "null"),\"block_kib\":\(blockSize / 1024)}")
        } else {
            io.out("file:          \(path)")
            io.out("bytes:         \(bytes) (\(fmt(Double(bytes) / 1e6, 1)) MB)")
            io.out("samples:       \(count)")
            io.out("time:          \(fmt(best, 3)) s\(runs > 1 ? " (best of \(runs))" : "")")
            io.out("throughput:    \(fmt(mbPerSecond, 1)) MB/s, \(fmt(samplesPerSecond / 1e6, 2)) M samples/s")
            io.out("peak RSS:      \(fmt(peakMiB, 1)) MiB")
            io.out("threads:       \(threads)")
            io.out("delivery:      \(chunk.map { "copied, \($0) samples per call" } ?? "parsed blocks of \(blockSize / 1024) KiB, not copied")")
        }
    }

    /// Peak resident set size of this process in MiB: `VmHWM` from `/proc/self/status` (the
    /// high-water mark of this program's memory), else `getrusage(RUSAGE_SELF)` `ru_maxrss`.
    /// (A process spawned directly by a large parent may inherit its high-water mark across `exec`.)
    static func peakResidentMiB() -> Double {
        if let kB = procStatusKilobytes("VmHWM:") { return Double(kB) / 1024 }
        return ruMaxRSSMiB()
    }

    /// `getrusage(RUSAGE_SELF)` `ru_maxrss` (KiB on Linux) in MiB.
    static func ruMaxRSSMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// A `kB` field of `/proc/self/status` (`fopen`/`fgets`), or nil.
    static func procStatusKilobytes(_ key: String) -> Int? {
        guard let f = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), f) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(key) {
                return Int(text.dropFirst(key.count).split(separator: " ").first ?? "")
            }
        }
        return nil
    }

    static func fmt(_ v: Double, _ decimals: Int) -> String {
        var p = 1.0
        for _ in 0..<decimals { p *= 10 }
        let r = (v * p).rounded() / p
        return String(r)
    }

}
