import MotionAnalysis
import MotionCore

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
                                  "stream.missing_samples=\(stream.estimatedMissingSamples)", "steps.count=\(p.result(of: analyzers.steps).count)"],
                       stepDelaysS: p.visibility(of: analyzers.steps).delays.map { Double($0) / 1e9 })
        }
    }

    /// Replays `recording` at every rate × latency.
    /// - Throws: ``CLIError/failure(_:exitCode:)`` with the reader's or the analysis's file/line message.
    static func run(recording: String, rates: [Double], latencies: [Double]) throws(CLIError) -> Outcome {
        var analyzers: StandardAnalyzers?
        do {
            let runs = try ReplaySweep.run(path: recording, rates: rates, latencies: latencies) { header in
                let (pipeline, handles) = try StandardAnalyzers.pipeline(for: header)
                analyzers = handles
                return pipeline
            }
            return Outcome(runs: runs, analyzers: analyzers!)
        } catch {
            throw .failure("\(error)")
        }
    }

    /// The `p`-quantile (0...1) of `xs` by nearest rank; 0 when empty.
    static func quantile(_ xs: [Double], _ p: Double) -> Double {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s[min(s.count - 1, max(0, Int((p * Double(s.count)).rounded(.up)) - 1))]
    }

    static func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }

    /// The replay as rows (first row the header), for the terminal and the HTML page.
    static func rows(_ o: Outcome) -> [[String]] {
        var rows = [["rate [Hz]", "latency [s]", "deliveries", "samples", "worst sample delay [s]", "mean sample delay [s]", "steps",
                     "mean step delay [s]", "p95 step delay [s]", "worst step delay [s]"]]
        for r in o.rows {
            rows.append([WakesCommand.fmt((r.rateHz * 10).rounded() / 10), WakesCommand.fmt(r.latencyS), String(r.deliveries), String(r.samples), format3(r.worstDelayS),
                         format3(r.meanDelayS), String(r.stepDelaysS.count), format3(mean(r.stepDelaysS)),
                         format3(quantile(r.stepDelaysS, 0.95)), format3(r.stepDelaysS.max() ?? 0)])
        }
        return rows
    }

    /// Aligned table of the replay.
    static func table(_ o: Outcome) -> String {
        let rows = rows(o)
        var widths = [Int](repeating: 0, count: rows[0].count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = "Replay of the recording (rates below its own by keeping the first sample of each 1/rate slot; the highest row is its own mean rate). Step delay = delivery time - step time, including the counter's confirmation hold:\n"
        for r in rows {
            out += r.enumerated().map { i, c in String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  ") + "\n"
        }
        out += summary(o) + "\n"
        return out
    }

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
            return "{\"rate_hz\": \(r.rateHz), \"latency_s\": \(r.latencyS), \"deliveries\": \(r.deliveries), \"samples\": \(r.samples), \"worst_delay_s\": \(r.worstDelayS), \"mean_delay_s\": \(r.meanDelayS), \"steps\": \(r.stepDelaysS.count), \"mean_step_delay_s\": \(mean(r.stepDelaysS)), \"worst_step_delay_s\": \(r.stepDelaysS.max() ?? 0), \"analysis\": [\(r.analysis.map { "\"\($0)\"" }.joined(separator: ", "))], \"step_delays_s\": [\(delays)]}"
        }
        return "{\"identical\": \(o.identical), \"results\": [\(items.joined(separator: ", "))]}"
    }

    static func format3(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int64(r)) : String(r)
    }
}
