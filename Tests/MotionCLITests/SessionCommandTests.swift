import Foundation
import MotionCore
import MotionSession
import MotionTestSupport
import Testing
@testable import MotionCLI
@testable import MotionIIO

/// The command line of sessions: option checks before any device is touched, the log lines a
/// service manager reads, the live view, and `recover`.
@Suite struct SessionCommandTests {
    @Test(arguments: [
        (["--rotate", "10"], "'--rotate' needs '--output-dir DIR'"),
        (["--output-dir", "/tmp/x", "--keep", "3"], "'--keep' and '--max-disk' need '--rotate'"),
        (["--max-disk", "1G"], "need '--output-dir DIR'"),
        (["--output-dir", "/tmp/x", "--rotate", "10m"], "'m' is ambiguous"),
        (["--output-dir", "/tmp/x", "--rotate", "1h", "--max-disk", "10min"], "expected a size such as 500M"),
        (["--output-dir", "/tmp/x", "--rotate", "1K"], "a size of at least 4K"),
        (["--output", "a.csv", "--output-dir", "/tmp/x"], "cannot be combined"),
        (["--json", "--ndjson"], "'--json' and '--ndjson' cannot be combined"),
        (["--board", "no-such-board"], "Unknown board 'no-such-board'"),
        (["--output-dir", "/tmp/x", "--rotate", "1h", "--keep", "0"], "--keep"),
    ])
    func badSessionOptionsAreUsageErrors(_ args: [String], _ message: String) {
        let r = runCLI(["capture", "-u", "xml:/nonexistent"] + args)
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
    }

    @Test func theLogIsOneLinePerEventPrefixedForTheJournal() {
        let e = SessionEvent.deviceLost(at: 0, state: .lost(device: "accel_3d"), reconnecting: true)
        let journal = ServiceLog(style: .journal)
        #expect(journal.line(e) == "<4>accel_3d was removed during capture. Waiting for it to come back (device events).")
        #expect(ServiceLog(style: .plain).line(e).hasPrefix("warning: accel_3d was removed"))
        #expect(ServiceLog(style: .plain).line(.stopped(end: .signal, samples: 3)) == "notice: stopped (signal) after 3 samples")
        // The journal only when JOURNAL_STREAM names stderr itself; a terminal otherwise, or plain.
        #expect(ServiceLog.detect(stderrIsTerminal: false, journalStream: "64770:123", stderrIdentity: (64770, 123)) == .journal)
        #expect(ServiceLog.detect(stderrIsTerminal: false, journalStream: "64770:123", stderrIdentity: (64770, 124)) == .plain)
        #expect(ServiceLog.detect(stderrIsTerminal: true, journalStream: nil, stderrIdentity: (1, 2)) == .terminal)
        #expect(ServiceLog.detect(stderrIsTerminal: false, journalStream: "garbage", stderrIdentity: (1, 2)) == .plain)
    }

    @Test func sessionOutputWritesNDJSONAndPlainLogsWithoutEscapes() throws {
        nonisolated(unsafe) var out = ""
        nonisolated(unsafe) var err = ""
        let io = CommandIO(writeOut: { out += $0 }, writeErr: { err += $0 }, stderrIsTerminal: false)
        var o = SessionOutput(io: io, log: ServiceLog(style: .plain), ndjson: true, session: "s1")
        let r = BatchReport(session: "s1", sequence: 1, recording: "r.csv", firstSample: 1_000_000_000, lastSample: 1_990_000_000, samples: 100,
                            totalSamples: 100, lostSamples: 0, steps: 2, deviceDeliveries: 1, schedulerWakeups: 1, userspaceReturns: 1,
                            elapsedNanoseconds: 1_000_000_000, cpuNanoseconds: 1000)
        o.batch(r)
        o.event(.paused(at: 2_000_000_000), sequence: 2)
        o.finished(SessionSummary(scope: .session(recordings: ["r.csv"]), session: "s1", complete: true, end: .signal, tally: SessionTally()), sequence: 3)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["type"] as? String } == ["batch", "event", "summary"])
        #expect(objects.map { $0["seq"] as? Int } == [1, 2, 3])
        #expect(objects[1]["event"] as? String == "paused" && objects[2]["kind"] as? String == "session")
        #expect(err == "notice: paused: buffers disabled, the sensor is idle (SIGUSR2 resumes)\n")
        #expect(!err.contains("\u{1B}"))
    }

    @Test func theLiveViewIsOneLineRedrawnPerBatch() {
        var v = LiveView()
        var line = ""
        for k in 1...12 {
            let r = BatchReport(session: "s", sequence: k, recording: nil, firstSample: Int64(k - 1) * 1_000_000_000, lastSample: Int64(k) * 1_000_000_000 - 10_000_000,
                                samples: 100, totalSamples: 100 * k, lostSamples: 1, steps: 2 * k, activity: "walking", activityConfidence: 87.4,
                                deviceDeliveries: k, schedulerWakeups: Int64(k), userspaceReturns: k, elapsedNanoseconds: Int64(k) * 1_000_000_000, cpuNanoseconds: nil)
            line = v.line(r)!
        }
        #expect(line == "walking 87 % | steps 24 | cadence 120/min | 100.0 Hz | wake-ups 3600/h | lost 1")
        #expect(LiveView.draw(line) == "\r" + line + "\u{1B}[K")
        #expect(v.drawn == Array(LiveView.draw(line).utf8))
        #expect(v.clear() == "\r\u{1B}[K" && v.clear() == "")
    }

    /// A report is asked for only when someone shows it: every batch with --ndjson; on a terminal
    /// only when the live line is due for a redraw; never with stderr a file and no --ndjson.
    @Test func reportsAreAskedForOnlyWhenShown() {
        let io = CommandIO(writeOut: { _ in }, writeErr: { _ in }, stderrIsTerminal: true)
        let plain = SessionOutput(io: io, log: ServiceLog(style: .plain), ndjson: false, session: "s")
        #expect(!plain.wantsBatchReport(endingAt: 0) && !plain.wantsBatchReport(endingAt: 5_000_000_000))
        let ndjson = SessionOutput(io: io, log: ServiceLog(style: .plain), ndjson: true, session: "s")
        #expect(ndjson.wantsBatchReport(endingAt: 0))
        // Batches joined over several wake-ups suit every output but `--ndjson`'s line per batch.
        #expect(plain.acceptsJoinedBatches && !ndjson.acceptsJoinedBatches)
        var terminal = SessionOutput(io: io, log: ServiceLog(style: .terminal), ndjson: false, session: "s")
        // Without a live view a joined sample may wait a second; the live view is redrawn every 250 ms.
        #expect(plain.joinedBatchNanoseconds == 1_000_000_000 && terminal.joinedBatchNanoseconds == 250_000_000)
        let second: Int64 = 1_000_000_000
        var asked = 0, drawn = 0
        for k in 1...300 {
            let last = Int64(k) * 10_000_000
            guard terminal.wantsBatchReport(endingAt: last) else { continue }
            asked += 1
            let r = BatchReport(session: "s", sequence: k, recording: nil, firstSample: last, lastSample: last, samples: 1, totalSamples: k,
                                lostSamples: 0, steps: nil, activity: nil, activityConfidence: nil, deviceDeliveries: k, schedulerWakeups: nil,
                                userspaceReturns: k, elapsedNanoseconds: last, cpuNanoseconds: nil)
            if terminal.live!.render(r) { drawn += 1 }
        }
        #expect(asked == drawn, "every report asked for is drawn")
        #expect(asked >= 2 && asked <= Int(3 * second / LiveView.redrawNanoseconds) + 1, "\(asked) of 300 batches over 3 s")
    }

    /// `formatFixed`, now written as bytes (`appendFixed`, the live view's), prints what its
    /// `String` form printed.
    @Test func fixedPointTextIsUnchanged() {
        func reference(_ v: Double, _ digits: Int) -> String {
            guard v.isFinite else { return "-" }
            var p = 1.0
            for _ in 0..<digits { p *= 10 }
            let scaled = (abs(v) * p).rounded()
            let ip = Int64(scaled / p)
            var frac = String(Int64(scaled - Double(ip) * p))
            while frac.count < digits { frac = "0" + frac }
            let sign = v < 0 && scaled != 0 ? "-" : ""
            return digits == 0 ? "\(sign)\(ip)" : "\(sign)\(ip).\(frac)"
        }
        var rng = SplitMix64(seed: 3)
        var values: [Double] = [0, -0.0, 0.05, -0.05, 0.004, -0.004, 1.25, 99.95, -99.95, 1e15, .nan, .infinity, 123.456789]
        for _ in 0..<3000 { values.append((Double(rng.next() % 2_000_000_000) - 1e9) / Double(1 << (rng.next() % 30))) }
        for v in values {
            for digits in 0...4 { #expect(formatFixed(v, digits) == reference(v, digits), "\(v) \(digits)") }
        }
    }

    /// Per-sample batches (10 ms apart) redraw the line every 250 ms of sample time, not per batch.
    @Test func theLiveViewRedrawsAtMostFourTimesASecond() {
        var v = LiveView()
        let drawn = (1...100).filter { k in
            let t = Int64(k) * 10_000_000
            let r = BatchReport(session: "s", sequence: k, recording: nil, firstSample: t, lastSample: t, samples: 1, totalSamples: k,
                                lostSamples: 0, steps: nil, deviceDeliveries: k, schedulerWakeups: nil, userspaceReturns: k,
                                elapsedNanoseconds: t, cpuNanoseconds: nil)
            return v.line(r) != nil
        }
        #expect(drawn == [1, 26, 51, 76])
    }

    /// `recover DIR`: the interrupted recording gets its summary, a finished one is left alone,
    /// a second run finds nothing; a malformed one fails with its name and exit 1.
    @Test func recoverFinalizesInterruptedRecordings() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-recover-cli").path
        let rows = (0..<300).map { "\(1_000_000_000 + $0 * 10_000_000),0.1,0.2,9.8" }.joined(separator: "\n")
        let head = "# motionbatch-recording: 2\n# session: abc\n# sequence: 1\ntimestamp_ns,accel_x,accel_y,accel_z\n"
        try (head + rows + "\n1234,0.").write(toFile: dir + "/a.csv", atomically: false, encoding: .utf8)
        try (head + rows + "\n").write(toFile: dir + "/b.csv", atomically: false, encoding: .utf8)
        try "{}".write(toFile: dir + "/b.summary.json", atomically: false, encoding: .utf8)
        let r = runCLI(["recover", dir, "--json"])
        #expect(r.code == 0, "\(r.err)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        let recovered = try #require(o["recovered"] as? [[String: Any]])
        #expect(recovered.count == 1 && recovered[0]["recording"] as? String == "a.csv" && recovered[0]["cut_bytes"] as? Int == 7)
        #expect(recovered[0]["samples"] as? Int == 300 && recovered[0]["complete"] as? Bool == false && recovered[0]["cpu_s"] is NSNull)
        #expect(FileManager.default.fileExists(atPath: dir + "/a.summary.json"))
        #expect(try String(contentsOfFile: dir + "/b.summary.json", encoding: .utf8) == "{}")
        let again = runCLI(["recover", dir])
        #expect(again.code == 0 && again.out.contains("nothing to recover"))
        let skip = runCLI(["recover", dir + "/b.csv"])
        #expect(skip.code == 0 && skip.out.contains("skipped: already complete"))
        try (head + "1,2\n").write(toFile: dir + "/c.csv", atomically: false, encoding: .utf8)
        let bad = runCLI(["recover", dir])
        #expect(bad.code == 1 && bad.err.contains("c.csv") && bad.err.contains("left as it is"))
        let missing = runCLI(["recover", dir + "/none.csv"])
        #expect(missing.code == 1 && missing.err.contains("no such file"))
    }

    @Test func devicesSelectionByParent() throws {
        let hub = "/devices/virtual/misc/uhid/0006:1209:0001.0001/HID-SENSOR-200073.2.auto"
        func sensor(_ id: String, _ name: String) -> SensorDescription {
            SensorDescription(id: id, name: name, label: nil, kind: .accelerometer, channels: [], samplingFrequency: nil, samplingFrequencyAttribute: nil,
                              availableFrequencies: [], hasTimestamp: true, timestampClock: nil, isBufferCapable: true,
                              fifo: .init(hasTimeout: false, timeout: nil, enabled: nil, watermarkMin: nil, watermarkMax: nil), stepCounter: nil)
        }
        // Not local: identities have no parent; a name given twice is refused with the choices.
        let twins = [sensor("iio:device0", "bma400"), sensor("iio:device1", "bma400")]
        #expect(throws: CLIError.self) { try CaptureCommand.select(twins, names: ["bma400"]) }
        #expect(try CaptureCommand.select(twins, names: ["iio:device1"]).map(\.id) == ["iio:device1"])
        _ = hub
    }
}
