import MotionCore
import WakeCost

/// The RECORDING part of `motionbatch wakes`: replays the recording at each latency (at its own
/// sampling rate) through MotionCore's Batcher, runs the stream statistics and the step counter
/// on the delivered batches, and reports deliveries, sample delivery delays, and when each step
/// became visible (the report's tables are WakeCost's, from these results). The analysis results
/// must be identical across latencies.
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

    static func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }

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
            return "{\"rate_hz\": \(r.rateHz ?? 0), \"latency_s\": \(r.latencyS), \"deliveries\": \(r.deliveries), \"samples\": \(r.samples), \"worst_delay_s\": \(r.worstDelayS), \"mean_delay_s\": \(r.meanDelayS), \"steps\": \(r.eventCount), \"mean_step_delay_s\": \(mean(r.eventDelaysS)), \"worst_step_delay_s\": \(r.eventDelaysS.max() ?? 0), \"step_visibility_s\": \(VisibilityDelays.json(VisibilityDelays(delaysS: r.eventDelaysS)).serialized()), \"activity_visibility_s\": \(VisibilityDelays.json(r.activityDelaysS.map(VisibilityDelays.init)).serialized()), \"analysis\": [\(r.analysis.map { "\"\($0)\"" }.joined(separator: ", "))], \"step_delays_s\": [\(delays)]}"
        }
        return "{\"identical\": \(RecordingReplay.analysesIdentical(rs)), \"results\": [\(items.joined(separator: ", "))]}"
    }

    static func format3(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int64(r)) : String(r)
    }
}
