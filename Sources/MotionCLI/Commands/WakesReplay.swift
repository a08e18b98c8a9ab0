import MotionCore
import WakeCost

/// The RECORDING part of `motionbatch wakes`: replays the recording at each latency (at its own
/// sampling rate) through MotionCore's Batcher, runs the stream statistics and the step counter
/// on the delivered batches, and reports deliveries, sample delivery delays, and when each step
/// became visible. The analysis results must be identical across latencies.
enum WakesReplay {
    /// Reads `recording` and replays it at every latency.
    /// - Throws: ``CLIError/failure(_:exitCode:)`` with the reader's file/line message.
    static func run(recording: String, latencies: [Double]) throws -> [ReplayResult] {
        let rec: Recording
        do {
            rec = try Recording.read(path: recording)
        } catch {
            throw CLIError.failure("\(error)")
        }
        guard !rec.samples.isEmpty else { throw CLIError.failure("\(recording): no samples") }
        do {
            return try latencies.map { l in try RecordingReplay.run(rec.samples, latencyS: l, makeAnalyzers: analyzers) }
        } catch {
            throw CLIError.failure("\(recording): \(error)")
        }
    }

    /// The analyses run in a replay.
    static func analyzers() throws -> [any ReplayAnalyzer] {
        [StreamStatisticsAnalyzer(), try StepCountReplayAnalyzer()]
    }

    /// The `p`-quantile (0...1) of `xs` by nearest rank; 0 when empty.
    static func quantile(_ xs: [Double], _ p: Double) -> Double {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s[min(s.count - 1, max(0, Int((p * Double(s.count)).rounded(.up)) - 1))]
    }

    static func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }

    /// Aligned table of the replay.
    static func table(_ rs: [ReplayResult]) -> String {
        var rows = [["latency [s]", "deliveries", "samples", "worst sample delay [s]", "mean sample delay [s]", "steps",
                     "mean step delay [s]", "p95 step delay [s]", "worst step delay [s]"]]
        for r in rs {
            rows.append([WakesCommand.fmt(r.latencyS), String(r.deliveries), String(r.samples), format3(r.worstDelayS),
                         format3(r.meanDelayS), String(r.eventCount), format3(mean(r.eventDelaysS)),
                         format3(quantile(r.eventDelaysS, 0.95)), format3(r.eventDelaysS.max() ?? 0)])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = "Replay of the recording at its own rate (step delay = delivery time - step time, including the counter's confirmation hold):\n"
        for r in rows {
            out += r.enumerated().map { i, c in String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  ") + "\n"
        }
        out += summary(rs) + "\n"
        return out
    }

    /// One sentence: identical or not.
    static func summary(_ rs: [ReplayResult]) -> String {
        RecordingReplay.analysesIdentical(rs)
            ? "Analysis results identical across all \(rs.count) latencies: \(rs.first?.analysis.joined(separator: " ") ?? "")."
            : "ANALYSIS RESULTS DIFFER between latencies: " + rs.map { "\(WakesCommand.fmt($0.latencyS)) s: \($0.analysis.joined(separator: " "))" }.joined(separator: "; ")
    }

    /// JSON object of the replay: `identical`, and per latency the counts, delays and every
    /// step's visibility delay (ms resolution).
    static func json(_ rs: [ReplayResult]) -> String {
        let items = rs.map { r in
            let delays = r.eventDelaysS.map { format3($0) }.joined(separator: ", ")
            return "{\"latency_s\": \(r.latencyS), \"deliveries\": \(r.deliveries), \"samples\": \(r.samples), \"worst_delay_s\": \(r.worstDelayS), \"mean_delay_s\": \(r.meanDelayS), \"steps\": \(r.eventCount), \"mean_step_delay_s\": \(mean(r.eventDelaysS)), \"worst_step_delay_s\": \(r.eventDelaysS.max() ?? 0), \"analysis\": [\(r.analysis.map { "\"\($0)\"" }.joined(separator: ", "))], \"step_delays_s\": [\(delays)]}"
        }
        return "{\"identical\": \(RecordingReplay.analysesIdentical(rs)), \"results\": [\(items.joined(separator: ", "))]}"
    }

    static func format3(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int64(r)) : String(r)
    }
}
