import MotionAnalysis
import MotionCore
import WakeCost

/// The RECORDING part of `motionbatch wakes`: MotionAnalysis's ``ReplaySweep`` streams the
/// recording through the standard pipeline at every rate × latency (decimated below its own rate);
/// this formats deliveries, sample delivery delays, when each step became visible, and whether the
/// analysis results are identical across latencies.
enum WakesReplay {
    /// One configuration's figures, as the table and the JSON show them.
    struct Row {
        var rateHz: Double
        var latencyS: Double
        var deliveries: Int
        var samples: Int
        var worstDelayS: Double
        var meanDelayS: Double
        /// `analyzer.key=value` per result figure shown beside the comparison.
        var analysis: [String]
        /// Per step, in announcement order: delivery time − step time (s).
        var stepDelaysS: [Double]
        /// Per activity change: announcement delivery time − the change's (back-dated) start (s).
        var activityDelaysS: [Double]? = nil
    }

    /// The finished sweep and where its results are.
    struct Outcome {
        var runs: [ReplaySweep.Run]
        var analyzers: StandardAnalyzers

        /// One row per run, in run order.
        var rows: [Row] { runs.map(row) }

        /// Whether every rate's results are identical across its latencies.
        var identical: Bool { ReplaySweep.identicalWithinRates(runs) }

        /// The rates replayed, in order, each with its rows and whether their results are identical.
        var byRate: [(rateHz: Double, rows: [Row], identical: Bool)] {
            var rates: [Double] = []
            for r in runs where !rates.contains(r.rateHz) { rates.append(r.rateHz) }
            return rates.map { rate in
                let group = runs.filter { $0.rateHz == rate }
                return (rate, group.map(row), ReplaySweep.identicalWithinRates(group))
            }
        }

        func row(_ run: ReplaySweep.Run) -> Row {
            let d = run.session.delivery
            let p = run.session.pipeline
            let stream = p.result(of: analyzers.stream)
            return Row(rateHz: run.rateHz, latencyS: run.latencyS, deliveries: d.deliveries, samples: d.samples,
                       worstDelayS: d.worstDelayS, meanDelayS: d.meanDelayS,
                       analysis: ["stream.samples=\(stream.sampleCount)", "stream.gaps=\(stream.gapCount)",
                                  "stream.missing_samples=\(stream.estimatedMissingSamples)", "steps.count=\(p.result(of: analyzers.steps).count)",
                                  "activity.segments=\(p.result(of: analyzers.activity).segments.count)"],
                       stepDelaysS: p.visibility(of: analyzers.steps).delays.map { Double($0) / 1e9 },
                       activityDelaysS: p.visibility(of: analyzers.activity).delays.map { Double($0) / 1e9 })
        }
    }

    /// Replays the recording `open` reads (from its start, at every call) at every rate × latency.
    /// - Throws: ``CLIError/failure(_:exitCode:)`` with the reader's or the analysis's file/line message.
    /// `progress` gets the pass (1: the rate scan, 2: the sweep) and the bytes read in it.
    static func run(open: () throws -> RecordingReader, rates: [Double], latencies: [Double],
                    progress: (Int, Int) -> Void = { _, _ in }) throws(CLIError) -> Outcome {
        var analyzers: StandardAnalyzers?
        do {
            let runs = try ReplaySweep.run(open: open, rates: rates, latencies: latencies, progress: progress) { header in
                let (pipeline, handles) = try StandardAnalyzers.pipeline(for: header)
                analyzers = handles
                return pipeline
            }
            return Outcome(runs: runs, analyzers: analyzers!)
        } catch {
            throw .failure("\(error)")
        }
    }

    static func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }

    /// One sentence per rate: identical across latencies or not.
    static func summary(_ o: Outcome) -> String {
        o.byRate.map { rate, group, identical in
            let name = "\(WakesCommand.fmt((rate * 10).rounded() / 10)) Hz"
            return identical
                ? "\(name): analysis results identical across all \(group.count) latencies: \(group.first?.analysis.joined(separator: " ") ?? "")."
                : "\(name): ANALYSIS RESULTS DIFFER between latencies: " + group.map { "\(WakesCommand.fmt($0.latencyS)) s: \($0.analysis.joined(separator: " "))" }.joined(separator: "; ")
        }.joined(separator: "\n")
    }

    /// JSON object of the replay: `identical`, and per latency the counts, delays and every
    /// step's visibility delay (ms resolution).
    static func json(_ o: Outcome) -> String {
        let items = o.rows.map { r in
            let delays = r.stepDelaysS.map { format3($0) }.joined(separator: ", ")
            return "{\"rate_hz\": \(r.rateHz), \"latency_s\": \(r.latencyS), \"deliveries\": \(r.deliveries), \"samples\": \(r.samples), \"worst_delay_s\": \(r.worstDelayS), \"mean_delay_s\": \(r.meanDelayS), \"steps\": \(r.stepDelaysS.count), \"mean_step_delay_s\": \(mean(r.stepDelaysS)), \"worst_step_delay_s\": \(r.stepDelaysS.max() ?? 0), \"step_visibility_s\": \(VisibilityDelays.json(VisibilityDelays(delaysS: r.stepDelaysS)).serialized()), \"activity_visibility_s\": \(VisibilityDelays.json(r.activityDelaysS.map(VisibilityDelays.init)).serialized()), \"analysis\": [\(r.analysis.map { "\"\($0)\"" }.joined(separator: ", "))], \"step_delays_s\": [\(delays)]}"
        }
        return "{\"identical\": \(o.identical), \"results\": [\(items.joined(separator: ", "))]}"
    }

    static func format3(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int64(r)) : String(r)
    }
}
