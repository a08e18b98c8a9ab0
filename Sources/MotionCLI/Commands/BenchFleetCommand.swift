import Foundation
import MotionCore
import MotionFleet
import MotionSystem

/// `motionbatch bench fleet URL [--boards N] [--seconds S] [--dir DIR] [--outbox-dir DIR]
/// [--json]`: N simulated boards (one process, one libmosquitto client and one outbox each) at
/// one batch a second for S seconds through the broker at URL into one collector on its own
/// thread (MotionFleet's ``MotionFleet/FleetBenchmark``; docs/fleet.md, "Scale"). Prints the
/// messages lost, the collector's CPU time per message and the lag from a board's publication
/// to the collector's fsync (p50, p99, max). Targets: 0 lost, <= 100 µs per message, p99 <= 2 s.
/// Build with `-c release`; `contrib/mosquitto/bench-fleet.sh` starts a broker for it.
enum BenchFleetCommand {
    /// The targets.
    static let targetCPUPerMessageMicroseconds = 100.0
    static let targetLagP99Seconds = 2.0

    static var spec: CommandSpec {
        CommandSpec(
            name: "fleet",
            abstract: "Measure a fleet of simulated boards into one collector: loss, collector CPU per message, lag.",
            discussion: """
            Needs a broker at URL (mqtt://127.0.0.1:PORT/PREFIX, anonymous; contrib/mosquitto/bench-fleet.sh \
            starts one). The collector writes into DIR/collected (default: a new directory under /tmp, \
            removed at the end unless --keep; where /tmp is a tmpfs give a DIR on a disk, or the fsyncs \
            cost nothing); the boards' outboxes go to --outbox-dir (default \
            /dev/shm/motionbatch-bench-PID when /dev/shm exists: one disk for a thousand boards' fsyncs \
            is not a fleet's). Stops by itself: after the sending, at most --drain seconds for the \
            collector to have everything. JSON keys: boards, connected, seconds, sent, written, lost, \
            received, duplicates, collector_cpu_s, collector_cpu_per_message_us, lag_p50_s, lag_p99_s, \
            lag_max_s, sending_s, wall_s, late_wakeups, outbox_left, acks_published, load_before, \
            load_after, targets_met, after "schema": 1 (docs/schemas/bench-fleet.schema.json).
            """,
            arguments: [ArgumentSpec("URL", help: "mqtt://HOST[:PORT]/PREFIX of the broker.")],
            options: [
                .option("boards", value: "N", help: "Simulated boards (default 1000)."),
                .option("seconds", value: "S", help: "Batches per board, one a second (default 60)."),
                .option("drain", value: "S", help: "After the sending, wait at most S seconds for the collector (default 30)."),
                .option("dir", value: "DIR", help: "The collector's directory (DIR/collected; default a new one under /tmp)."),
                .option("outbox-dir", value: "DIR", help: "The boards' outboxes (default under /dev/shm)."),
                .flag("keep", help: "Keep the collected files and outboxes."),
                .flag("insecure", help: "Allow plain mqtt:// to a host that is not loopback."),
                .flag("json", help: "Print one JSON object."),
            ],
            run: run
        )
    }

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) throws {
        let url = try PublishOptions.brokerURL(args.argument("URL")!, insecure: args.flag("insecure"))
        let boards = try args.int("boards", rule: InputLimits.positiveCount.narrowed(to: 1...20_000)) ?? 1000
        let seconds = try args.int("seconds", rule: InputLimits.positiveCount.narrowed(to: 1...3600)) ?? 60
        let drain = try args.int("drain", rule: InputLimits.positiveCount.narrowed(to: 1...3600)) ?? 30
        let pid = getpid()
        let givenDir = args.string("dir")
        let dir = givenDir ?? NSTemporaryDirectory() + "motionbatch-bench-fleet-\(pid)"
        let outboxes = args.string("outbox-dir") ?? (Directory.exists("/dev/shm") ? "/dev/shm/motionbatch-bench-\(pid)" : dir + "/outboxes")
        // Only what the benchmark creates is removed at the end: nothing that was there before.
        for d in [dir + "/collected", outboxes] where Directory.exists(d) {
            throw CLIError.failure("\(d) exists: the benchmark writes (and removes) a directory of its own there; give another --dir or --outbox-dir")
        }
        do { try Directory.create(dir) } catch { throw CLIError.failure("cannot create \(dir): \(error)") }
        var c = FleetBenchmark.Configuration(url: url, outputDir: dir + "/collected", outboxDir: outboxes)
        c.boards = boards
        c.seconds = seconds
        c.drainSeconds = drain
        let keep = args.flag("keep")
        defer {
            if !keep {
                try? FileManager.default.removeItem(atPath: outboxes)
                try? FileManager.default.removeItem(atPath: dir + "/collected")
                if givenDir == nil { try? FileManager.default.removeItem(atPath: dir) }
            }
        }
        let r: FleetBenchmark.Result
        // Two threads log (the boards' and the collector's): whole lines, straight to stderr.
        do { r = try FleetBenchmark.run(c) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) } } catch { throw CLIError.failure("\(error)") }
        let met = r.lost == 0 && r.collectorCPUPerMessageMicroseconds <= targetCPUPerMessageMicroseconds && r.lagP99Seconds <= targetLagP99Seconds
        if args.flag("json") {
            io.out(json(r, seconds: seconds, met: met).serialized(pretty: true))
        } else {
            io.out("boards       \(r.connected) of \(r.boards) connected, \(seconds) batches each")
            io.out("messages     \(r.sent) sent, \(r.written) written, \(r.lost) lost; \(r.received) received, \(r.duplicates) duplicates")
            io.out("collector    CPU \(formatFixed(r.collectorCPUSeconds, 2)) s, \(formatFixed(r.collectorCPUPerMessageMicroseconds, 1)) µs per message (target <= \(Int(targetCPUPerMessageMicroseconds)))")
            io.out("lag          p50 \(formatFixed(r.lagP50Seconds, 3)) s, p99 \(formatFixed(r.lagP99Seconds, 3)) s, max \(formatFixed(r.lagMaxSeconds, 3)) s (target p99 <= \(formatFixed(targetLagP99Seconds, 0)) s)")
            io.out("run          sending \(formatFixed(r.sendingSeconds, 1)) s, wall \(formatFixed(r.wallSeconds, 1)) s, \(r.lateWakeups) late board wake-ups, \(r.outboxLeft) left in outboxes, \(r.acksPublished) acks")
            io.out("load         \(r.loadBefore.map { formatFixed($0, 2) } ?? "?") before, \(r.loadAfter.map { formatFixed($0, 2) } ?? "?") after")
            io.out("targets      \(met ? "met" : "NOT met")")
        }
        if r.lost > 0 { throw CLIError.failure("\(r.lost) messages lost") }
    }

    /// The `--json` object (docs/schemas/bench-fleet.schema.json).
    static func json(_ r: FleetBenchmark.Result, seconds: Int, met: Bool) -> JSONValue {
        JSONValue.object([
            ("schema", .number(1)),
            ("boards", .number(r.boards)), ("connected", .number(r.connected)), ("seconds", .number(seconds)),
            ("sent", .number(r.sent)), ("written", .number(r.written)), ("lost", .number(r.lost)),
            ("received", .number(r.received)), ("duplicates", .number(r.duplicates)),
            ("collector_cpu_s", .number(r.collectorCPUSeconds)), ("collector_cpu_per_message_us", .number(r.collectorCPUPerMessageMicroseconds)),
            ("lag_p50_s", .number(r.lagP50Seconds)), ("lag_p99_s", .number(r.lagP99Seconds)), ("lag_max_s", .number(r.lagMaxSeconds)),
            ("sending_s", .number(r.sendingSeconds)), ("wall_s", .number(r.wallSeconds)), ("late_wakeups", .number(r.lateWakeups)),
            ("outbox_left", .number(r.outboxLeft)), ("acks_published", .number(r.acksPublished)),
            ("load_before", r.loadBefore.map { .number($0) } ?? .null), ("load_after", r.loadAfter.map { .number($0) } ?? .null),
            ("targets_met", .bool(met)),
        ])
    }
}
