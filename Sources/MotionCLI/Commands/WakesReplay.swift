import MotionCore
import WakeCost

/// The RECORDING part of `motionbatch wakes`: replays the recording at each latency (at its own
/// sampling rate) and reports deliveries, sample delivery delays and the analysis results,
/// which must be identical across latencies.
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
        return latencies.map { l in RecordingReplay.run(rec.samples, latencyS: l, makeAnalyzers: analyzers) }
    }

    /// The analyses run in a replay.
    static func analyzers() -> [any ReplayAnalyzer] {
        [StreamStatisticsAnalyzer()]
    }

    /// Aligned table of the replay.
    static func table(_ rs: [ReplayResult]) -> String {
        var rows = [["latency [s]", "deliveries", "samples", "worst delay [s]", "mean delay [s]", "events", "worst event delay [s]", "analysis"]]
        for r in rs {
            rows.append([WakesCommand.fmt(r.latencyS), String(r.deliveries), String(r.samples), String(format3(r.worstDelayS)),
                         format3(r.meanDelayS), String(r.eventCount), format3(r.eventDelaysS.max() ?? 0), r.analysis.joined(separator: " ")])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = "Replay of the recording (its own rate):\n"
        for r in rows {
            out += r.enumerated().map { i, c in
                i == r.count - 1 ? c : String(repeating: " ", count: widths[i] - c.count) + c
            }.joined(separator: "  ") + "\n"
        }
        out += summary(rs) + "\n"
        return out
    }

    /// One sentence: identical or not.
    static func summary(_ rs: [ReplayResult]) -> String {
        RecordingReplay.analysesIdentical(rs)
            ? "Analysis results identical across all \(rs.count) latencies: \(rs.first?.analysis.joined(separator: " ") ?? "")."
            : "ANALYSIS RESULTS DIFFER between latencies (see the table)."
    }

    /// JSON object of the replay.
    static func json(_ rs: [ReplayResult]) -> String {
        let items = rs.map { r in
            "{\"latency_s\": \(r.latencyS), \"deliveries\": \(r.deliveries), \"samples\": \(r.samples), \"worst_delay_s\": \(r.worstDelayS), \"mean_delay_s\": \(r.meanDelayS), \"events\": \(r.eventCount), \"worst_event_delay_s\": \(r.eventDelaysS.max() ?? 0), \"mean_event_delay_s\": \(r.eventDelaysS.isEmpty ? 0 : r.eventDelaysS.reduce(0, +) / Double(r.eventDelaysS.count)), \"analysis\": [\(r.analysis.map { "\"\($0)\"" }.joined(separator: ", "))]}"
        }
        return "{\"identical\": \(RecordingReplay.analysesIdentical(rs)), \"results\": [\(items.joined(separator: ", "))]}"
    }

    static func format3(_ v: Double) -> String {
        let s = String((v * 1000).rounded() / 1000)
        return s
    }
}
