import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// The one replay of a file: streamed chunks, labels from the `label` column, several sessions in
/// one pass, and an analyzer's refusal reported at the recording's line.
struct RecordingReplayTests {
    /// A plain CSV at 50 Hz with a label column: 1 s sitting, 1 s walking, repeated.
    static func labelledCSV(seconds: Int) -> String {
        var s = "time_s,accel_x,accel_y,accel_z,label\n"
        for i in 0..<(seconds * 50) {
            let t = Double(i) / 50
            s += "\(t),\(sin(2 * Double.pi * t + 0.1)),0,9.81,\((i / 50) % 2 == 0 ? "sitting" : "walking")\n"
        }
        return s
    }

    @Test func everySessionSeesTheWholeFileWithItsLabels() throws {
        let path = try TestPaths.scratchFile(Self.labelledCSV(seconds: 20))
        var progress: [Int] = []
        let replay = try RecordingReplay.run(path: path, progress: { progress.append($0) }) { header in
            #expect(header.hasLabels)
            return [DeliveryPolicy.samples(1), .latency(seconds: 2)].map { policy in
                var p = AnalysisPipeline()
                p.add(LabelRecorder())
                p.add(UpCrossings())
                return ReplaySession(policy: policy, pipeline: p, labelled: true)
            }
        }
        #expect(replay.sessions.count == 2)
        #expect(replay.sessions[0].pipeline.results == replay.sessions[1].pipeline.results)
        #expect(replay.sessions[0].delivery.deliveries == 1000 && replay.sessions[1].delivery.deliveries == 10)
        let labels = try #require(replay.sessions[0].pipeline.results.values[0] as? LabelRecorder.Runs).labels
        #expect(labels.count == 1000 && labels.runs.count == 20 && labels.label(at: 75) == "walking")
        #expect(progress.last == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
    }

    @Test(arguments: [1, 2, 1000])
    func anAnalyzersRefusalNamesTheFileAndLine(batch: Int) throws {
        // A header line, then the rows: the 3rd (t = 0.04 s) is on line 4.
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.02,0,0,9.8\n0.04,0,0,9.8\n0.06,0,0,9.8\n")
        #expect {
            _ = try RecordingReplay.run(path: path) { _ in
                var p = AnalysisPipeline()
                p.add(Refuser(timestamp: 40_000_000))
                return [ReplaySession(policy: .samples(batch), pipeline: p)]
            }
        } throws: { error in
            let e = error as? RecordingError
            return e?.file == path && e?.line == 4 && e?.problem.hasPrefix("refuser: sample ") == true
        }
    }

    @Test func aMalformedLineIsTheReadersError() throws {
        let path = try TestPaths.scratchFile("time_s,accel_x,accel_y,accel_z\n0,0,0,9.8\n0.02,0,x,9.8\n")
        #expect(throws: RecordingError(file: path, line: 3, column: 3, columnName: "accel_y", problem: "bad number \"x\"")) {
            _ = try StandardAnalyzers.replay(path: path, policy: .samples(2))
        }
    }
}

/// Timestamps so far apart that their difference overflows Int64 are refused with the line, not a trap.
@Test(arguments: [["replay"], ["steps"], ["wakes"]])
func timestampsBeyondTheLimitAreRefusedNotATrap(_ what: [String]) throws {
    let path = try TestPaths.scratchFile("# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z\n-9000000000000000000,0,0,9.8\n9000000000000000000,0,0,9.8\n")
    #expect {
        if what == ["wakes"] {
            _ = try ReplaySweep.run(path: path, rates: [100], latencies: [1]) { try StandardAnalyzers.pipeline(for: $0).0 }
        } else {
            _ = try StandardAnalyzers.replay(path: path, policy: what == ["steps"] ? .samples(RecordingReplay.chunkSamples) : .latency(seconds: 1))
        }
    } throws: { error in
        let e = error as? RecordingError
        // The reader refuses it on its line (InputLimits), before the replay's own check.
        return e?.line == 3 && e?.column == 1 && e?.problem.hasPrefix("timestamp -9000000000000000000 ns is out of range") == true
    }
}
