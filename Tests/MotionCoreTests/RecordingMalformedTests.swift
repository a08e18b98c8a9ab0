import Foundation
import Testing
import MotionTestSupport
import MotionSystem
@testable import MotionCore

/// One bad file and the error the reader must report for it.
struct BadFile: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    /// Expected 1-based line (always known).
    var line: Int
    /// Expected 1-based column: the CSV field on data and column lines, the character in `#` lines.
    var column: Int
    /// A fragment the problem text must contain.
    var problem: String
    var testDescription: String { name }
}

private let own = "# motionbatch-recording: 1\n# device: test\ntimestamp_ns,accel_x,accel_y,accel_z\n"  // data starts on line 4
private let ownGyroLabel = "# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z,gyro_x,gyro_y,gyro_z,label\n"  // data on line 3
private let plain = "time_s,accel_x,accel_y,accel_z\n"  // data starts on line 2
private let ownV2 = "# motionbatch-recording: 2\ntimestamp_ns,accel_x,accel_y,accel_z\n"  // data starts on line 3

let badFiles: [BadFile] = [
    BadFile(name: "bad number", text: own + "1000,1,1.2.3,3\n", line: 4, column: 3, problem: "bad number \"1.2.3\""),
    BadFile(name: "letters", text: own + "1000,1,2,abc\n", line: 4, column: 4, problem: "bad number \"abc\""),
    BadFile(name: "padded number", text: own + "1000, 1,2,3\n", line: 4, column: 2, problem: "bad number \" 1\""),
    BadFile(name: "empty field", text: own + "1000,1,,3\n", line: 4, column: 3, problem: "empty field"),
    BadFile(name: "too few columns", text: own + "1000,1,2,3\n2000,1,2\n", line: 5, column: 4, problem: "expected 4 columns (timestamp_ns,accel_x,accel_y,accel_z), found 3"),
    BadFile(name: "too many columns", text: own + "1000,1,2,3,4\n", line: 4, column: 5, problem: "expected 4 columns (timestamp_ns,accel_x,accel_y,accel_z), found 5"),
    BadFile(name: "label with comma", text: ownGyroLabel + "1,1,2,3,4,5,6,sit,ting\n", line: 3, column: 9, problem: "expected 8 columns"),
    BadFile(name: "NaN", text: own + "1000,nan,2,3\n", line: 4, column: 2, problem: "NaN is not allowed"),
    BadFile(name: "NaN in gyro", text: ownGyroLabel + "1,1,2,3,4,NaN,6,walking\n", line: 3, column: 6, problem: "NaN is not allowed"),
    BadFile(name: "infinity", text: own + "1000,1,-inf,3\n", line: 4, column: 3, problem: "infinity is not allowed"),
    BadFile(name: "Infinity", text: plain + "0,1,2,Infinity\n", line: 2, column: 4, problem: "infinity is not allowed"),
    BadFile(name: "overflow to infinity", text: own + "1000,1,2,1e999\n", line: 4, column: 4, problem: "acceleration \"1e999\" is out of range (allowed -1000000...1000000 m/s^2)"),
    BadFile(name: "timestamp backwards", text: own + "2000,1,2,3\n3000,1,2,3\n2500,1,2,3\n", line: 6, column: 1, problem: "timestamp 2500 ns goes backwards (line 5 has 3000 ns)"),
    BadFile(name: "timestamp duplicated", text: own + "2000,1,2,3\n2000,1,2,3\n", line: 5, column: 1, problem: "duplicate timestamp 2000 ns (same as line 4)"),
    // A step back of up to 1 s is jitter in a plain CSV (dropped, counted: TimestampDefectFilter); beyond it, an error.
    BadFile(name: "plain time backwards", text: plain + "2.5,1,2,3\n0.01,1,2,3\n", line: 3, column: 1, problem: "goes back 2.49 s (line 2 has 2500000000 ns): more than the 1 s tolerated"),
    BadFile(name: "fractional nanoseconds", text: own + "1000.5,1,2,3\n", line: 4, column: 1, problem: "bad timestamp \"1000.5\" (expected integer nanoseconds"),
    BadFile(name: "timestamp overflow", text: own + "99999999999999999999,1,2,3\n", line: 4, column: 1, problem: "timestamp \"99999999999999999999\" ns is out of range (allowed ±4000000000000000000 ns"),
    BadFile(name: "bad plain time", text: plain + "0.0.2,1,2,3\n", line: 2, column: 1, problem: "bad number \"0.0.2\""),
    BadFile(name: "empty line", text: own + "1000,1,2,3\n\n2000,1,2,3\n", line: 5, column: 1, problem: "empty line"),
    BadFile(name: "quoted label", text: ownGyroLabel + "1,1,2,3,4,5,6,\"walking\"\n", line: 3, column: 8, problem: "quoted fields are not supported"),
    BadFile(name: "unknown version", text: "# motionbatch-recording: 3\ntimestamp_ns,accel_x,accel_y,accel_z\n1,1,2,3\n", line: 1, column: 26, problem: "unknown format version 3 (this reader knows versions 1 and 2)"),
    BadFile(name: "bad version", text: "# motionbatch-recording: one\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 1, column: 26, problem: "bad format version \"one\""),
    BadFile(name: "missing header", text: "1000,1,2,3\n2000,1,2,3\n", line: 1, column: 1, problem: "missing header"),
    // (`timestamp_ns,accel_x,...` without the header block is the `columns` dialect's: RecordingDialectTests.)
    BadFile(name: "missing header block", text: "timestamp_ns,accel_x,accel_y,accel_z,extra\n1000,1,2,3,4\n", line: 1, column: 1, problem: "missing header"),
    BadFile(name: "comment instead of version", text: "# device: x\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 1, column: 1, problem: "missing header: the first line must be '# motionbatch-recording: 2'"),
    BadFile(name: "empty file", text: "", line: 1, column: 1, problem: "missing header: the file is empty"),
    BadFile(name: "no column line", text: "# motionbatch-recording: 1\n# device: x\n", line: 3, column: 1, problem: "missing column header line"),
    BadFile(name: "header torn", text: "# motionbatch-recording: 1\n# dev", line: 2, column: 6, problem: "ends inside the header"),
    BadFile(name: "malformed header line", text: "# motionbatch-recording: 1\n#device lsm6dsl\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 1, problem: "malformed header line"),
    BadFile(name: "duplicate header key", text: "# motionbatch-recording: 1\n# device: a\n# device: b\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 3, column: 3, problem: "header key 'device' appears twice (first on line 2)"),
    BadFile(name: "unknown column", text: "# motionbatch-recording: 1\ntimestamp_ns,accel_x,accel_y,accel_z,temp\n", line: 2, column: 5, problem: "unknown column \"temp\" (expected 'gyro_x' or 'label')"),
    BadFile(name: "columns out of order", text: "# motionbatch-recording: 1\ntimestamp_ns,accel_y,accel_x,accel_z\n", line: 2, column: 2, problem: "unknown column \"accel_y\" (expected 'accel_x')"),
    BadFile(name: "wrong time column", text: "# motionbatch-recording: 1\ntime_s,accel_x,accel_y,accel_z\n", line: 2, column: 1, problem: "unknown column \"time_s\" (expected 'timestamp_ns')"),
    BadFile(name: "partial gyro", text: "time_s,accel_x,accel_y,accel_z,gyro_x\n", line: 1, column: 6, problem: "missing column 'gyro_y'"),
    BadFile(name: "column after label", text: "time_s,accel_x,accel_y,accel_z,label,extra\n", line: 1, column: 6, problem: "unknown column \"extra\" (expected end of line)"),
    BadFile(name: "unsupported unit", text: "# motionbatch-recording: 1\n# channel.accel_x: g\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 20, problem: "unit \"g\" is not supported (expected m/s^2)"),
    BadFile(name: "channel without column", text: "# motionbatch-recording: 1\n# channel.gyro_x: rad/s\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 3, problem: "describes a channel that is not a data column"),
    // Values from outside checked against InputLimits where they enter (issue 13).
    BadFile(name: "timestamp at Int64.min", text: own + "-9223372036854775808,1,2,3\n0,1,2,3\n", line: 4, column: 1,
            problem: "timestamp -9223372036854775808 ns is out of range (allowed ±4000000000000000000 ns"),
    BadFile(name: "timestamp near Int64.max", text: own + "0,1,2,3\n9223372036854775000,1,2,3\n", line: 5, column: 1,
            problem: "timestamp 9223372036854775000 ns is out of range (allowed ±4000000000000000000 ns"),
    BadFile(name: "timestamp just beyond the limit", text: own + "4000000000000000001,1,2,3\n", line: 4, column: 1, problem: "is out of range (allowed ±4000000000000000000 ns"),
    BadFile(name: "plain time beyond the limit", text: plain + "9300000000,1,2,3\n", line: 2, column: 1,
            problem: "time \"9300000000\" s is out of range (allowed ±4000000000 s"),
    BadFile(name: "plain time in exponent form beyond the limit", text: plain + "1e19,1,2,3\n", line: 2, column: 1, problem: "s is out of range"),
    BadFile(name: "acceleration beyond 1e6", text: own + "1000,1,2,1000001\n", line: 4, column: 4,
            problem: "acceleration \"1000001\" is out of range (allowed -1000000...1000000 m/s^2)"),
    BadFile(name: "huge finite gyro", text: ownGyroLabel + "1,1,2,3,4,1e300,6,walking\n", line: 3, column: 6,
            problem: "angular rate \"1e300\" is out of range (allowed -1000000...1000000 rad/s)"),
    BadFile(name: "declared rate 1e308", text: "# motionbatch-recording: 1\n# actual_hz: 1e308\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 14,
            problem: "sampling rate 1e308 is out of range (allowed 0.001...1000000 Hz)"),
    BadFile(name: "declared rate 1e-320", text: "# motionbatch-recording: 1\n# requested_hz: 1e-320\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 17,
            problem: "sampling rate 1e-320 is out of range"),
    BadFile(name: "declared rate in hex", text: "# motionbatch-recording: 1\n# actual_hz: 0x10\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 14,
            problem: "expected a sampling rate in Hz"),
    BadFile(name: "NUL in a label", text: ownGyroLabel + "1,1,2,3,4,5,6,walk\u{0}ing\n", line: 3, column: 8,
            problem: "label \"walk\\x00ing\" is not printable UTF-8 text"),
    BadFile(name: "escape sequence in a label", text: ownGyroLabel + "1,1,2,3,4,5,6,\u{1B}[31mred\n", line: 3, column: 8,
            problem: "label \"\\x1b[31mred\" is not printable"),
    BadFile(name: "NUL in a header value", text: "# motionbatch-recording: 1\n# device: a\u{0}b\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 12,
            problem: "header line \"# device: a\\x00b\" is not printable UTF-8 text"),
    BadFile(name: "NUL in a number", text: own + "1000,1\u{0},2,3\n", line: 4, column: 2, problem: "bad number \"1\\x00\""),
    // Event lines (format version 2): the line and the event field at fault; event lines count as lines.
    BadFile(name: "event line in version 1", text: own + "1000,1,2,3\n# event: pause 1500\n", line: 5, column: 1, problem: "event lines need format version 2"),
    BadFile(name: "comment among rows", text: ownV2 + "1000,1,2,3\n# a comment\n", line: 4, column: 1, problem: "must be an event line"),
    BadFile(name: "unknown event", text: ownV2 + "1000,1,2,3\n# event: nap 1500\n", line: 4, column: 1, problem: "unknown event \"nap\""),
    BadFile(name: "event without time", text: ownV2 + "# event: pause\n", line: 3, column: 2, problem: "has no time"),
    BadFile(name: "bad event time", text: ownV2 + "1000,1,2,3\n# event: pause 1.5e3\n", line: 4, column: 2, problem: "bad event time \"1.5e3\""),
    BadFile(name: "event detail without value", text: ownV2 + "# event: lost 5 state\n", line: 3, column: 3, problem: "is not KEY=VALUE"),
    BadFile(name: "event detail control byte", text: ownV2 + "# event: lost 5 state=a\u{1b}[2J\n", line: 3, column: 3, problem: "\\x1b"),
    BadFile(name: "event detail twice", text: ownV2 + "# event: lost 5 a=1 a=2\n", line: 3, column: 3, problem: "'a' appears twice"),
    BadFile(name: "row after events counts their lines", text: ownV2 + "1000,1,2,3\n# event: pause 1500\n# event: resume 1600\n2000,1,2\n", line: 6, column: 4, problem: "expected 4 columns"),
    BadFile(name: "backwards after an event", text: ownV2 + "1000,1,2,3\n# event: pause 1500\n900,1,2,3\n", line: 5, column: 1, problem: "goes backwards (line 3 has 1000 ns)"),
    BadFile(name: "event in the header block", text: "# motionbatch-recording: 2\n# event: pause 1\ntimestamp_ns,accel_x,accel_y,accel_z\n", line: 2, column: 3, problem: "event line before the column line"),
]

@Suite struct RecordingMalformedTests {
    @Test(arguments: badFiles)
    func reportsFileLineColumnAndProblem(_ bad: BadFile) throws {
        let path = try TestPaths.scratchFile(bad.text, name: "bad.csv")
        do {
            _ = try Recording.read(path: path)
            Issue.record("\(bad.name): read succeeded, expected an error")
        } catch let error as RecordingError {
            #expect(error.file == path)
            #expect(error.line == bad.line, "\(error)")
            #expect(error.column == bad.column, "\(error)")
            #expect(error.problem.contains(bad.problem), "\(error)")
        }
    }

    @Test func descriptionReadsLikeADiagnostic() {
        let e = RecordingError(file: "Recordings/x.csv", line: 12, column: 3, columnName: "accel_y", problem: "bad number \"1.2.3\"")
        #expect(e.description == "Recordings/x.csv:12: column 3 (accel_y): bad number \"1.2.3\"")
        #expect(RecordingError(file: "a.csv", line: 2, column: 1, problem: "empty line").description == "a.csv:2: column 1: empty line")
    }

    @Test func errorNamesColumnInDescription() throws {
        let path = try TestPaths.scratchFile(own + "1000,1,1.2.3,3\n")
        #expect(throws: RecordingError.self) { try Recording.read(path: path) }
        do { _ = try Recording.read(path: path) } catch {
            #expect("\(error)" == "\(path):4: column 3 (accel_y): bad number \"1.2.3\"")
        }
    }

    @Test func missingFileIsAnIOError() {
        #expect(throws: SystemError(.noEntry, call: "open", subject: "/nonexistent/x.csv")) {
            try RecordingReader(path: "/nonexistent/x.csv")
        }
    }

    @Test func rowsBeforeTheBadLineAreDelivered() throws {
        let path = try TestPaths.scratchFile(own + "1000,1,2,3\n2000,1,2,3\n3000,x,2,3\n")
        let reader = try RecordingReader(path: path)
        let first = try reader.next(maxSamples: 2)
        #expect(first?.samples.count == 2)
        #expect(throws: RecordingError.self) { try reader.next(maxSamples: 2) }
        // The reader stays failed: the same error again, no rows after the bad line.
        #expect(throws: RecordingError(file: path, line: 6, column: 2, columnName: "accel_x", problem: "bad number \"x\"")) {
            try reader.next(maxSamples: 2)
        }
    }

    @Test func tornFinalLineWithoutNewlineIsDroppedWithWarning() throws {
        let path = try TestPaths.scratchFile(plain + "0,1,2,3\n0.01,1,2,3\n0.02,1,2")
        let r = try Recording.read(path: path)
        #expect(r.samples.count == 2)
        #expect(r.warnings == [RecordingWarning(file: path, line: 4, message: "last line has no newline (torn write, e.g. power loss); dropped its 8 bytes")])
    }

    @Test func crlfAndByteOrderMarkAreAccepted() throws {
        let path = try TestPaths.scratchFile("\u{FEFF}time_s,accel_x,accel_y,accel_z,label\r\n0,1,2,3,sit\r\n0.5,1,2,3,\r\n")
        let r = try Recording.read(path: path)
        #expect(r.samples.map(\.timestamp) == [0, 500_000_000])
        #expect(r.labels == ["sit", nil])
    }
}
