import MotionAnalysis
import MotionCore
import MotionSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `motionbatch bench steps [FILE] [--batch N] [--hours H] [--json]`: step-counter throughput on a
/// recording held in memory, cut into deliveries of N samples once and replayed end to end
/// (timestamps shifted per repetition, untimed) until `H` hours of 100 Hz-equivalent samples
/// (default 24 h = 8.64 million samples) have gone through the analysis pipeline's
/// ``StepCountAnalyzer`` on one core, as every command runs it. Only the `consume` calls are timed.
/// Build with `-c release` for meaningful figures.
enum BenchStepsCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "steps",
            abstract: "Measure step-counter throughput (samples/s) on an in-memory recording.",
            discussion: """
            Default FILE: ../shared/datasets/steps/oxford/Samsung_Dario_Hard_InHand_1.csv. JSON keys: \
            file, batch, samples, seconds, samples_per_second, steps, target_samples_per_second, target_met.
            """,
            arguments: [ArgumentSpec("FILE", help: "Recording to replay (any supported format).", optional: true)],
            options: [
                .option("batch", value: "N", help: "Samples per process call (default 1024)."),
                .option("hours", value: "H", help: "Hours of 100 Hz data to process (default 24)."),
                .flag("json", help: "Print one JSON object."),
            ],
            run: { args, io in
                let file = args.argument("FILE") ?? "../shared/datasets/steps/oxford/Samsung_Dario_Hard_InHand_1.csv"
                let batch = try args.int("batch", rule: InputLimits.positiveCount.narrowed(to: 1...1_000_000)) ?? 1024
                let hours = try args.double("hours", rule: ValueRule("duration", unit: "h", 0.001...1000)) ?? 24
                let samples = try Recording.read(path: file).samples
                guard samples.count > 1 else { throw CLIError.failure("\(file): needs at least 2 samples") }
                let target = Int(hours * 3600 * 100)
                var pipeline = AnalysisPipeline()
                let steps = pipeline.add(try StepCountAnalyzer())
                let run = try BenchReplay.run(samples, batch: batch, minimumSamples: target, through: &pipeline)
                let total = run.samples
                let totalSteps = pipeline.result(of: steps).count
                let seconds = run.seconds
                let rate = Double(total) / seconds
                let goal = 20e6
                if args.flag("json") {
                    io.out("{\"schema\":1,\"file\":\(StepFormatting.jsonString(file)),\"batch\":\(batch),\"samples\":\(total),\"seconds\":\(StepFormatting.jsonNumber(seconds)),\"samples_per_second\":\(StepFormatting.jsonNumber(rate)),\"steps\":\(totalSteps),\"target_samples_per_second\":\(StepFormatting.jsonNumber(goal)),\"target_met\":\(rate >= goal)}")
                } else {
                    io.out("step counter: \(total) samples (\(StepFormatting.fixed(Double(total) / 360_000, 1)) h at 100 Hz) in \(StepFormatting.fixed(seconds, 3)) s, batch \(batch)")
                    io.out("throughput: \(StepFormatting.fixed(rate / 1e6, 1)) million samples/s (target >= 20), \(totalSteps) steps")
                }
            }
        )
    }
}
