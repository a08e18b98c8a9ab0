import Testing
import MotionTestSupport
@testable import MotionCLI

/// Progress on a terminal for the commands that read a recording, nothing on a pipe.
struct ProgressBarTests {
    static let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path

    @Test func lineWithKnownTotalHasBarPercentAndTimeLeft() {
        let l = ProgressBar.line(label: "steps a.csv", done: 250, total: 1000, elapsedNs: 3_000_000_000, columns: 80)
        #expect(l.hasPrefix("steps a.csv [") && l.contains(" 25 %") && l.hasSuffix("ETA 9 s"), "\(l)")
        #expect(l.count <= 79)
        // No time left before 1 % and half a second, none at the end.
        #expect(!ProgressBar.line(label: "x", done: 5, total: 1000, elapsedNs: 3_000_000_000, columns: 80).contains("ETA"))
        #expect(!ProgressBar.line(label: "x", done: 500, total: 1000, elapsedNs: 100_000_000, columns: 80).contains("ETA"))
        #expect(ProgressBar.line(label: "x", done: 1000, total: 1000, elapsedNs: 9_000_000_000, columns: 80).hasSuffix("100 %"))
    }

    @Test func lineForAStreamCountsBytesAndRate() {
        let l = ProgressBar.line(label: "steps -", done: 3 * 1024 * 1024, total: 0, elapsedNs: 2_000_000_000, columns: 80)
        #expect(l == "steps - 3.0 MiB read, 1.5 MiB/s", "\(l)")
    }

    @Test func lineFitsNarrowTerminalsWithLongNames() {
        let name = "steps " + String(repeating: "folder/", count: 30) + "walk.csv"
        for columns in [20, 40, 80] {
            let l = ProgressBar.line(label: name, done: 10, total: 100, elapsedNs: 1_000_000_000, columns: columns)
            #expect(l.count <= max(columns - 1, 20), "\(columns): \(l)")
            #expect(l.contains("10 %"))
        }
        #expect(ProgressBar.duration(65) == "1 min 05 s" && ProgressBar.duration(7260) == "2 h 01 min")
    }

    @Test func redrawnAtMostEveryTenthOfASecondAndCleared() {
        nonisolated(unsafe) var err = ""
        nonisolated(unsafe) var clock: Int64 = 0
        let io = CommandIO(writeOut: { _ in }, writeErr: { err += $0 }, stderrIsTerminal: true)
        var bar = ProgressBar(label: "t", total: 100, io: io, now: { clock })
        bar.update(1, io: io)
        clock += 50_000_000
        bar.update(2, io: io)
        #expect(err.components(separatedBy: "\r").count - 1 == 1)
        clock += 60_000_000
        bar.update(3, io: io)
        #expect(err.components(separatedBy: "\r").count - 1 == 2)
        bar.finish(io: io)
        let cleared = err
        bar.finish(io: io)
        #expect(err == cleared && err.hasSuffix("\r"))
    }

    static func run(_ args: [String], terminal: Bool) -> (code: Int32, out: String, err: String) {
        nonisolated(unsafe) var out = ""
        nonisolated(unsafe) var err = ""
        // A wide terminal: the bar's label holds the whole path wherever the package is checked
        // out (at 100 columns a long checkout path cut the command's name off the label).
        var io = CommandIO(writeOut: { out += $0 }, writeErr: { err += $0 }, stderrIsTerminal: terminal, columns: 400)
        let code = MotionBatchCLI.main(args, io: &io)
        return (code, out, err)
    }

    @Test(arguments: [["steps"], ["activity"], ["wakes", "--rates", "25", "--latencies", "1"]])
    func drawnOnATerminalOnlyAndOnStderr(_ command: [String]) {
        let tty = Self.run(command + [Self.walk], terminal: true)
        #expect(tty.code == 0, "\(tty.err)")
        #expect(tty.err.contains("\r\(command[0]) ") && tty.err.contains(" %"), "\(command): \(tty.err.debugDescription)")
        #expect(!tty.out.contains("\r"))
        let pipe = Self.run(command + [Self.walk], terminal: false)
        #expect(pipe.code == 0 && !pipe.err.contains("\r") && pipe.out == tty.out)
    }

    @Test func convertDrawsToo() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "progress")
        let tty = Self.run(["convert", Self.walk, dir.appendingPathComponent("o.csv").path], terminal: true)
        #expect(tty.code == 0 && tty.err.contains("\rconvert "), "\(tty.err.debugDescription)")
    }
}
