import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The ActiGraph `.gt3x` reader: the real files of `../shared/datasets/devices/actigraph`
/// against ActiLife's own export and pygt3x (`scripts/gt3x-oracle.py`), and `log.bin` records
/// written by ``GT3XLogWriter`` for every rule and defect.
@Suite struct GT3XDialectTests {
    static let folder = TestPaths.datasetsRoot + "/devices/actigraph"
    static let present = FileManager.default.fileExists(atPath: folder + "/neo.gt3x")
    static let g = 9.80665

    static func read(_ path: String, options: RecordingReadOptions = RecordingReadOptions()) throws -> Recording {
        try Recording.read(try RecordingReader(input: .path(path), options: options))
    }

    /// neo.gt3x (activity.bin, deflated in the zip) decodes to ActiLife 6.13's CSV export of it,
    /// every sample at its 3 decimals.
    @Test(.enabled(if: present)) func neoDecodesToActiLifesExport() throws {
        let r = try Self.read(Self.folder + "/neo.gt3x")
        #expect(r.header.metadata["gt3x_format"]?.hasPrefix("activity.bin") == true)
        #expect(r.header.metadata[RecordingKey.timeBasis] == DeviceTimeBasis.utc)
        #expect(r.header.metadata[RecordingKey.utcOffset] == "-06:00 (info.txt)")
        // ActiLife's Start Time 11:55:00 on 12/20/2021, local time at -06:00.
        #expect(r.header.metadata[RecordingKey.startUTC] == "2021-12-20T17:55:00Z")
        let csv = try String(contentsOfFile: Self.folder + "/neo.csv", encoding: .utf8)
        let rows = csv.split(whereSeparator: \.isNewline).dropFirst(11).map { $0.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines))! } }
        #expect(rows.count == 18_004)
        #expect(r.samples.count == rows.count)
        var mismatches = 0
        for (s, row) in zip(r.samples, rows) {
            let mine = [s.accel.x, s.accel.y, s.accel.z].map { ($0 / Self.g * 1000).rounded() / 1000 }
            if mine != row { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(r.samples[0].timestamp == 1_640_022_900_000_000_000)
        #expect(r.samples[30].timestamp - r.samples[0].timestamp == 1_000_000_000)
        #expect(r.warnings.isEmpty, "\(r.warnings)")
    }

    /// The Link files (log.bin, ACTIVITY2) with and without idle sleep mode: sample count, the
    /// samples filled in, and every value and time against pygt3x when its output can be made
    /// (`MOTIONBATCH_GT3X_ORACLE`: a Python with pygt3x; docs/research.md).
    @Test(.enabled(if: present), arguments: [("ISM_Disabled", 0), ("ISM_Enabled", 6810)])
    func linkFilesMatchPygt3x(name: String, filled: Int) throws {
        let r = try Self.read(Self.folder + "/\(name).gt3x")
        #expect(r.header.metadata["gt3x_format"] == "log.bin")
        #expect(r.header.metadata[RecordingKey.utcOffset] == "-05:00 (info.txt)")
        // 5 minutes at 30 Hz from 15:57:00 local (20:57:00 UTC) to the last sample time, 16:02:00.
        #expect(r.samples.count == 9000)
        #expect(r.samples.first?.timestamp == 1_616_187_420_000_000_000)
        #expect(r.samples.last.map { $0.timestamp - r.samples[0].timestamp } == 299_966_666_667)
        // Idle sleep mode repeats the last sample: the filled runs are constant.
        var repeats = 0
        for i in 1..<r.samples.count where r.samples[i].accel == r.samples[i - 1].accel { repeats += 1 }
        if filled > 0 { #expect(repeats >= filled) }
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        guard let oracle = try Self.oracle(name) else { return }
        #expect(oracle.count == r.samples.count)
        #expect(oracle.filter(\.filled).count == filled)
        var bad = 0
        var firstBad: String?
        for (s, o) in zip(r.samples, oracle) {
            // pygt3x's time index is the device's local time (seconds); MotionBatch's UTC.
            let localSeconds = Double(s.timestamp - 5 * 3600 * 1_000_000_000) / 1e9
            let values = [s.accel.x, s.accel.y, s.accel.z].map { $0 / Self.g }
            if abs(localSeconds - o.time) > 1e-6 || zip(values, o.values).contains(where: { abs($0 - $1) > 1e-12 }) {
                bad += 1
                if firstBad == nil { firstBad = "\(localSeconds) \(values) against \(o.time) \(o.values)" }
            }
        }
        #expect(bad == 0, "first: \(firstBad ?? "-")")
    }

    struct OracleSample { var time: Double; var values: [Double]; var filled: Bool }

    /// pygt3x's decoding of `name`.gt3x, made by scripts/gt3x-oracle.py with the Python named by
    /// `MOTIONBATCH_GT3X_ORACLE`; nil (the comparison skipped) when it is not set.
    static func oracle(_ name: String) throws -> [OracleSample]? {
        guard let python = ProcessInfo.processInfo.environment["MOTIONBATCH_GT3X_ORACLE"], !python.isEmpty else { return nil }
        let out = try TestPaths.makeScratchDirectory(prefix: "gt3x-oracle").appendingPathComponent("\(name).csv").path
        let script = TestPaths.packageRoot.appendingPathComponent("scripts/gt3x-oracle.py").path
        let result = try TestProcess.run([python, script, folder + "/\(name).gt3x", out])
        #expect(result.status == 0, "\(result.err)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",").map { Double($0)! }
            return OracleSample(time: f[0], values: Array(f[1...3]), filled: f[4] == 1)
        }
    }

    // MARK: - log.bin rules and defects, from written records

    @Test func activityRecordsDecodeBothPackings() throws {
        var w = GT3XLogWriter()
        w.parameters(second: 99, accelScale: 341, idleSleepMode: false)
        let a: [(Int16, Int16, Int16)] = [(6, 8, -323), (-2048, 2047, 0), (1, -1, 341)]
        w.activity(second: 100, a)
        w.activity2(second: 101, [(48, -52, 332), (0, 0, 0), (-32768, 32767, 1)])
        let path = try w.folder(info: GT3XLogWriter.linkInfo(rate: 3, timeZone: "+01:00:00", scale: nil))
        let r = try Self.read(path)
        #expect(r.samples.count == 6)
        let counts = r.samples.map { [$0.accel.x, $0.accel.y, $0.accel.z].map { ($0 / Self.g * 341).rounded() } }
        #expect(counts == [[6, 8, -323], [-2048, 2047, 0], [1, -1, 341], [48, -52, 332], [0, 0, 0], [-32768, 32767, 1]])
        // +01:00: UTC is an hour before the local second 100; samples 1/3 s apart.
        #expect(r.samples.map(\.timestamp) == [0, 333_333_333, 666_666_667, 1_000_000_000, 1_333_333_333, 1_666_666_667].map { $0 + 100_000_000_000 - 3_600_000_000_000 })
    }

    @Test func theParameterScaleIsUsedWhenInfoGivesNone() throws {
        var w = GT3XLogWriter()
        w.parameters(second: 1, accelScale: 256, idleSleepMode: false)
        w.activity2(second: 2, [(256, -512, 128)])
        let r = try Self.read(try w.folder(info: GT3XLogWriter.linkInfo(rate: 1, scale: nil)))
        #expect(r.samples.map { [$0.accel.x, $0.accel.y, $0.accel.z].map { $0 / Self.g } } == [[1, -2, 0.5]])
        #expect(GT3XLogDecoder.sspFloat(GT3XLogWriter.sspFloat(341)) == 341)
        #expect(GT3XLogDecoder.sspFloat(0x0940_0000) == 256)
    }

    @Test func idleSleepModeRepeatsTheLastSampleUntilItEnds() throws {
        var w = GT3XLogWriter()
        w.parameters(second: 1, accelScale: nil, idleSleepMode: true)
        w.activity2(second: 10, [(1, 2, 3), (4, 5, 6)])
        w.event(second: 11, 0x08)
        w.event(second: 14, 0x09)
        w.activity2(second: 14, [(7, 8, 9), (10, 11, 12)])
        w.event(second: 15, 0x08)
        w.record(type: 0x02, second: 17, payload: [0xD1, 0x0F])  // battery: the last record
        let r = try Self.read(try w.folder(info: GT3XLogWriter.linkInfo(rate: 2, timeZone: "00:00:00")))
        let seconds = r.samples.map { Double($0.timestamp) / 1e9 }
        #expect(seconds == [10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5, 14, 14.5, 15, 15.5, 16, 16.5])
        let counts = r.samples.map { Int(($0.accel.x / Self.g * 256).rounded()) }
        #expect(counts == [1, 4, 4, 4, 4, 4, 4, 4, 7, 10, 10, 10, 10, 10])
        #expect(r.warnings.isEmpty)
    }

    @Test func aBadChecksumIsSkippedAndCounted() throws {
        var w = GT3XLogWriter()
        w.activity2(second: 10, [(1, 1, 1)])
        w.activity2(second: 11, [(2, 2, 2)], corruptChecksum: true)
        w.activity2(second: 12, [(3, 3, 3)])
        let r = try Self.read(try w.folder(info: GT3XLogWriter.linkInfo(rate: 1)))
        #expect(r.samples.map { Int(($0.accel.x / Self.g * 256).rounded()) } == [1, 3])
        let warning = try #require(r.warnings.first { $0.kind == .badChecksum })
        #expect(warning.count == 1 && warning.firstLines == [2])
    }

    @Test func paddingIsSkippedStrayBytesAndATruncatedRecordCounted() throws {
        var w = GT3XLogWriter()
        w.activity2(second: 10, [(1, 1, 1)])
        w.bytes += [0, 0, 0]
        w.activity2(second: 11, [(2, 2, 2)])
        w.bytes += [0x55, 0x66]
        w.activity2(second: 12, [(3, 3, 3)])
        var tail = GT3XLogWriter()
        tail.activity2(second: 13, [(4, 4, 4)])
        w.bytes += tail.bytes.dropLast(3)
        let r = try Self.read(try w.folder(info: GT3XLogWriter.linkInfo(rate: 1)))
        #expect(r.samples.map { Int(($0.accel.x / Self.g * 256).rounded()) } == [1, 2, 3])
        #expect(Set(r.warnings.map(\.kind)) == [.strayBytes, .truncatedBlock])
    }

    @Test func withoutAZoneTimesStayLocalUnlessTzIsGiven() throws {
        var w = GT3XLogWriter()
        w.activity2(second: 7200, [(0, 0, 256)])
        let path = try w.folder(info: GT3XLogWriter.linkInfo(rate: 1, timeZone: nil))
        let local = try Self.read(path)
        #expect(local.header.metadata[RecordingKey.timeBasis] == DeviceTimeBasis.deviceLocal)
        #expect(local.samples.first?.timestamp == 7_200_000_000_000)
        var options = RecordingReadOptions()
        options.dialect.timeZone = UTCOffset(parsing: "+02:00")
        let utc = try Self.read(path, options: options)
        #expect(utc.header.metadata[RecordingKey.timeBasis] == DeviceTimeBasis.utc)
        #expect(utc.header.metadata[RecordingKey.utcOffset] == "+02:00 (--tz)")
        #expect(utc.samples.first?.timestamp == 0)
    }

    @Test func badInfoIsAnErrorNamingTheLine() throws {
        var w = GT3XLogWriter()
        w.activity2(second: 1, [(0, 0, 256)])
        let path = try w.folder(info: ["Serial Number: TAS1", "Sample Rate: fast"])
        #expect { try Self.read(path) } throws: { "\($0)".contains("info.txt:2") && "\($0)".contains("Sample Rate") }
    }

    @Test func utcOffsetsParse() {
        #expect(UTCOffset(parsing: "-05:00:00")?.seconds == -18_000)
        #expect(UTCOffset(parsing: "05:30:00")?.seconds == 19_800)
        #expect(UTCOffset(parsing: "+0530")?.description == "+05:30")
        #expect(UTCOffset(parsing: "UTC") == .utc)
        #expect(UTCOffset(parsing: "+15:00") == nil)
        #expect(UTCOffset(parsing: "5:7x") == nil)
        #expect(UTCOffset(parsing: "") == nil)
    }
}
