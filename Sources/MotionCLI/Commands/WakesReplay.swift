import MotionCore
import WakeCost

/// The RECORDING part of `motionbatch wakes`: replays the recording at each latency (at its own
/// sampling rate) through MotionCore's Batcher, runs the stream statistics and the step counter
/// on the delivered batches, and reports deliveries, sample delivery delays, and when each step
/// became visible. The analysis results must be identical across latencies.
enum WakesReplay {
    /// Reads `recording` and replays it at every rate × latency. Rates below the recording's own
    /// are produced by keeping the first sample of each 1/rate slot; rates at or above it replay
    /// the recording as is (once).
    /// - Throws: ``CLIError/failure(_:exitCode:)`` with the reader's file/line message.
    static func run(recording: String, rates: [Double], latencies: [Double]) throws -> [ReplayResult] {
        let rec: Recording
        do {
            rec = try Recording.read(path: recording)
        } catch {
            throw CLIError.failure("\(error)")
        }
        guard rec.samples.count > 1 else { throw CLIError.failure("\(recording): fewer than two samples") }
        let native = RecordingReplay.meanRateHz(rec.samples)
        var streams: [(Double, [Sample])] = []
        var nativeDone = false
        for r in rates {
            if r >= native * 0.999 {
                if !nativeDone { streams.append((native, rec.samples)); nativeDone = true }
            } else {
                streams.append((r, RecordingReplay.decimate(rec.samples, toRateHz: r)))
            }
        }
        do {
            var out: [ReplayResult] = []
            for (rate, samples) in streams {
                for l in latencies {
                    var r = try RecordingReplay.run(samples, latencyS: l, makeAnalyzers: analyzers)
                    r.rateHz = rate
                    out.append(r)
                }
            }
            return out
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

    /// The replay as rows (first row the header), for the terminal and the HTML page.
    static func rows(_ rs: [ReplayResult]) -> [[String]] {
        var rows = [["rate [Hz]", "latency [s]", "deliveries", "samples", "worst sample delay [s]", "mean sample delay [s]", "steps",
                     "mean step delay [s]", "p95 step delay [s]", "worst step delay [s]"]]
        for r in rs {
            rows.append([WakesCommand.fmt(((r.rateHz ?? 0) * 10).rounded() / 10), WakesCommand.fmt(r.latencyS), String(r.deliveries), String(r.samples), format3(r.worstDelayS),
                         format3(r.meanDelayS), String(r.eventCount), format3(mean(r.eventDelaysS)),
                         format3(quantile(r.eventDelaysS, 0.95)), format3(r.eventDelaysS.max() ?? 0)])
        }
        return rows
    }

    /// Aligned table of the replay.
    static func table(_ rs: [ReplayResult]) -> String {
        let rows = rows(rs)
        var widths = [Int](repeating: 0, count: rows[0].count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = "Replay of the recording (rates below its own by keeping the first sample of each 1/rate slot; the highest row is its own mean rate). Step delay = delivery time - step time, including the counter's confirmation hold:\n"
        for r in rows {
            out += r.enumerated().map { i, c in String(repeating: " ", count: widths[i] - c.count) + c }.joined(separator: "  ") + "\n"
        }
        out += summary(rs) + "\n"
        return out
    }

    /// One sentence per rate: identical across latencies or not.
    static func summary(_ rs: [ReplayResult]) -> String {
        var rates: [Double] = []
        for r in rs where !rates.contains(r.rateHz ?? 0) { rates.append(r.rateHz ?? 0) }
        return rates.map { rate in
            let group = rs.filter { ($0.rateHz ?? 0) == rate }
            let name = "\(WakesCommand.fmt((rate * 10).rounded() / 10)) Hz"
            return RecordingReplay.analysesIdentical(group)
                ? "\(name): analysis results identical across all \(group.count) latencies: \(group.first?.analysis.joined(separator: " ") ?? "")."
                : "\(name): ANALYSIS RESULTS DIFFER between latencies: " + group.map { "\(WakesCommand.fmt($0.latencyS)) s: \($0.analysis.joined(separator: " "))" }.joined(separator: "; ")
        }.joined(separator: "\n")
    }

    /// JSON object of the replay: `identical`, and per latency the counts, delays and every
    /// step's visibility delay (ms resolution).
    static func json(_ rs: [ReplayResult]) -> String {
        let items = rs.map { r in
            let delays = r.eventDelaysS.map { format3($0) }.joined(separator: ", ")
            return "{\"rate_hz\": \(r.rateHz ?? 0), \"latency_s\": \(r.latencyS), \"deliveries\": \(r.deliveries), \"samples\": \(r.samples), \"worst_delay_s\": \(r.worstDelayS), \"mean_delay_s\": \(r.meanDelayS), \"steps\": \(r.eventCount), \"mean_step_delay_s\": \(mean(r.eventDelaysS)), \"worst_step_delay_s\": \(r.eventDelaysS.max() ?? 0), \"analysis\": [\(r.analysis.map { "\"\($0)\"" }.joined(separator: ", "))], \"step_delays_s\": [\(delays)]}"
        }
        return "{\"identical\": \(RecordingReplay.analysesIdentical(rs)), \"results\": [\(items.joined(separator: ", "))]}"
    }

    static func format3(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int64(r)) : String(r)
    }
}
