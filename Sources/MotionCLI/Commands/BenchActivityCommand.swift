import MotionAnalysis
import MotionCore
import MotionSystem

/// `motionbatch bench activity [FILE] [--batch N] [--hours H] [--json]`: activity-classifier
/// throughput on a recording held in memory (default: a 50 Hz 6-axis HAPT recording resampled to
/// 100 Hz by linear interpolation, so the figure is for 100 Hz 6-axis data), cut into deliveries of
/// N samples once and replayed end to end (timestamps shifted per repetition, untimed) until `H`
/// hours of samples have gone through the pipeline's ``ActivityAnalyzer`` on one core. Only the
/// `consume` calls are timed. Target: 5,000 times real time. Build with `-c release`.
enum BenchActivityCommand {
    /// The target: hours of data per hour of one core.
    static let targetRealTimeFactor = 5_000.0

    static var spec: CommandSpec {
        CommandSpec(
            name: "activity",
            abstract: "Measure activity-classifier throughput (times real time) on 100 Hz 6-axis data.",
            discussion: """
            Default FILE: ../shared/datasets/activity/hapt/user01_seq0.csv (50 Hz accel + gyro), resampled \
            to 100 Hz (--rate) by linear interpolation before timing. JSON keys: file, rate_hz, batch, \
            samples, data_hours, seconds, samples_per_second, real_time_factor, segments, \
            target_real_time_factor, target_met.
            """,
            arguments: [ArgumentSpec("FILE", help: "Recording to replay (any supported format).", optional: true)],
            options: [
                .option("rate", value: "HZ", help: "Resample to HZ before timing (default 100; 0 keeps the recording's samples)."),
                .option("batch", value: "N", help: "Samples per delivery (default 1024)."),
                .option("hours", value: "H", help: "Hours of data to process (default 24)."),
                .flag("json", help: "Print one JSON object."),
            ],
            run: { args, io in
                let file = args.argument("FILE") ?? "../shared/datasets/activity/hapt/user01_seq0.csv"
                let rate = try args.double("rate", rule: ValueRule("sampling rate (0: the recording's own)", unit: "Hz", 0...10_000)) ?? 100
                let batch = try args.int("batch", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000)) ?? 1024
                let hours = try args.double("hours", rule: ValueRule("duration", unit: "h", 0.001...1000)) ?? 24
                let recording: Recording
                do { recording = try Recording.read(path: file) } catch { throw CLIError.failure("\(error)") }
                var samples = recording.samples
                guard samples.count > 1 else { throw CLIError.failure("\(file): needs at least 2 samples") }
                if rate > 0 { samples = resampled(samples, rateHz: rate) }
                guard samples.count > 1 else { throw CLIError.failure("\(file): shorter than one period at \(rate.compactText) Hz") }
                let gyro = recording.header.sensors.contains(.gyro)
                var pipeline = AnalysisPipeline()
                let activity = pipeline.add(try ActivityAnalyzer(gyroscope: gyro))
                let span = samples[samples.count - 1].timestamp - samples[0].timestamp
                let perSecond = Double(samples.count - 1) / (Double(span) / 1e9)
                let run = try BenchReplay.run(samples, batch: batch, minimumSamples: Int((hours * 3600 * perSecond).rounded(.up)), through: &pipeline)
                let total = run.samples
                let processedSeconds = Double(run.dataNanoseconds) / 1e9
                let segments = pipeline.result(of: activity).segments.count
                let seconds = run.seconds
                let factor = processedSeconds / seconds
                let effectiveRate = perSecond
                if args.flag("json") {
                    io.out(JSONValue.object([
                        ("schema", .number(1)),
                        ("file", .string(file)), ("rate_hz", .number(effectiveRate)), ("batch", .number(batch)),
                        ("samples", .number(total)), ("data_hours", .number(processedSeconds / 3600)), ("seconds", .number(seconds)),
                        ("samples_per_second", .number(Double(total) / seconds)), ("real_time_factor", .number(factor)),
                        ("segments", .number(segments)), ("target_real_time_factor", .number(targetRealTimeFactor)),
                        ("target_met", .bool(factor >= targetRealTimeFactor)),
                    ]).serialized())
                } else {
                    io.out("activity classifier: \(total) samples (\(formatFixed(processedSeconds / 3600, 1)) h at \(formatFixed(effectiveRate, 1)) Hz, \(gyro ? "accel + gyro" : "accel only")) in \(formatFixed(seconds, 3)) s, batch \(batch)")
                    io.out("throughput: \(formatFixed(Double(total) / seconds / 1e6, 2)) million samples/s = \(formatFixed(factor, 0)) x real time (target >= \(formatFixed(targetRealTimeFactor, 0))), \(segments) segments")
                }
            }
        )
    }

    /// `samples` linearly interpolated onto a grid of `rateHz` from the first sample.
    static func resampled(_ samples: [Sample], rateHz: Double) -> [Sample] {
        let period = 1e9 / rateHz
        let t0 = samples[0].timestamp
        let end = samples[samples.count - 1].timestamp
        var out: [Sample] = []
        out.reserveCapacity(Int(Double(end - t0) / period) + 1)
        var j = 0
        var k = 0
        while true {
            let t = t0 + Int64((Double(k) * period).rounded())
            if t > end { break }
            while j + 1 < samples.count && samples[j + 1].timestamp <= t { j += 1 }
            let a = samples[j], b = samples[Swift.min(j + 1, samples.count - 1)]
            let f = b.timestamp > a.timestamp ? Double(t - a.timestamp) / Double(b.timestamp - a.timestamp) : 0
            func mix(_ x: Vector3, _ y: Vector3) -> Vector3 { Vector3(x.x + (y.x - x.x) * f, x.y + (y.y - x.y) * f, x.z + (y.z - x.z) * f) }
            out.append(Sample(timestamp: t, accel: mix(a.accel, b.accel), gyro: mix(a.gyro, b.gyro)))
            k += 1
        }
        return out
    }
}
