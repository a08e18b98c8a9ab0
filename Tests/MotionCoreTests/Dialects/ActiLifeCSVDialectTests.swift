import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// ActiLife's raw CSV export: the real export of neo.gt3x (`../shared/datasets/devices/actigraph`)
/// and written variants of its header.
@Suite struct ActiLifeCSVDialectTests {
    static let g = 9.80665

    static func read(_ path: String, tz: String? = nil) throws -> Recording {
        var options = RecordingReadOptions()
        options.dialect.timeZone = tz.flatMap(UTCOffset.init(parsing:))
        return try Recording.read(try RecordingReader(input: .path(path), options: options))
    }

    static func export(title: String = "------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.4 Firmware v2.5.0 date format M/d/yyyy at 30 Hz  Filter Normal -----------",
                       date: String = "12/20/2021", columns: String = "Accelerometer X,Accelerometer Y,Accelerometer Z", rows: [String]) throws -> String {
        let lines = [title, "Serial Number: NEO1C04110003", "Start Time 11:55:00", "Start Date \(date)", "Epoch Period (hh:mm:ss) 00:00:00",
                     "Download Time 12:09:58", "Download Date 12/20/2021", "Current Memory Address: 0", "Current Battery Voltage: 4.26     Mode = 12",
                     "--------------------------------------------------", columns] + rows
        return try TestPaths.scratchFile(lines.joined(separator: "\r\n") + "\r\n", name: "export.csv", prefix: "actilife")
    }

    /// neo.csv is recognised by its content and gives what neo.gt3x gives: the same count, each
    /// value at its 3 decimals, and with `--tz -06:00` (the zone neo.gt3x's info.txt names) the
    /// same times.
    @Test(.enabled(if: GT3XDialectTests.present)) func theExportOfNeoIsNeo() throws {
        let csv = try Self.read(GT3XDialectTests.folder + "/neo.csv")
        #expect(csv.header.metadata[RecordingKey.timeBasis] == DeviceTimeBasis.deviceLocal)
        // 2021-12-20 11:55:00 local, read as if UTC.
        #expect(csv.samples.first?.timestamp == 1_640_001_300_000_000_000)
        let zoned = try Self.read(GT3XDialectTests.folder + "/neo.csv", tz: "-06:00")
        let gt3x = try GT3XDialectTests.read(GT3XDialectTests.folder + "/neo.gt3x")
        #expect(zoned.header.metadata[RecordingKey.utcOffset] == "-06:00 (--tz)")
        #expect(zoned.samples.count == 18_004)
        #expect(zoned.samples.map(\.timestamp) == gt3x.samples.map(\.timestamp))
        let rounded = { (s: Sample) in [s.accel.x, s.accel.y, s.accel.z].map { ($0 / Self.g * 1000).rounded() / 1000 } }
        #expect(zoned.samples.map(rounded) == gt3x.samples.map(rounded))
        #expect(csv.warnings.isEmpty, "\(csv.warnings)")
    }

    @Test func aTimestampColumnAndAnotherDateFormatRead() throws {
        let path = try Self.export(title: "------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.4 Firmware v3.2.1 date format dd.MM.yyyy at 2 Hz  Filter Normal -----------",
                                   date: "20.12.2021", columns: "Timestamp,Accelerometer X,Accelerometer Y,Accelerometer Z",
                                   rows: ["20.12.2021 11:55:00.000,0.5,-1,0", "20.12.2021 11:55:00.500,0,0,1", "20.12.2021 11:55:01.000,1,0,0"])
        let r = try Self.read(path, tz: "+01:00")
        #expect(r.samples.map(\.timestamp) == [0, 500_000_000, 1_000_000_000].map { 1_640_001_300_000_000_000 - 3_600_000_000_000 + $0 })
        #expect(r.samples.map { [$0.accel.x, $0.accel.y, $0.accel.z] } == [[0.5 * Self.g, -Self.g, 0], [0, 0, Self.g], [Self.g, 0, 0]])
        #expect(r.header.metadata[RecordingKey.startUTC] == "2021-12-20T10:55:00Z")
    }

    @Test func aMissingValueKeepsTheOthersAtTheirPositions() throws {
        let r = try Self.read(try Self.export(rows: ["0,0,1", "NaN,0,1", "0,0,1"]))
        #expect(r.samples.map { $0.timestamp - 1_640_001_300_000_000_000 } == [0, 66_666_667])
        #expect(r.warnings.map(\.kind) == [.missingValue])
    }

    @Test func aBadHeaderIsAnErrorWithItsLine() throws {
        let noRate = try Self.export(title: "------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.4 -----------", rows: ["0,0,1"])
        #expect { try Self.read(noRate) } throws: { "\($0)".contains(":1:") && "\($0)".contains("sample rate") }
        let badDate = try Self.export(date: "2021-12-20", rows: ["0,0,1"])
        #expect { try Self.read(badDate) } throws: { "\($0)".contains(":4:") && "\($0)".contains("Start Date") }
        let badColumns = try Self.export(columns: "X,Y,Z", rows: ["0,0,1"])
        #expect { try Self.read(badColumns) } throws: { "\($0)".contains("Accelerometer X") }
        let badValue = try Self.export(rows: ["0,0,1", "0,x,1"])
        #expect { try Self.read(badValue) } throws: { "\($0)".contains(":13:") }
        // No Start Date line: reported at the '-----' ending the block (line 4 here), with a
        // column (the fuzz invariant: every error names where it is).
        let noDate = try TestPaths.scratchFile(["------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.4 Firmware v2.5.0 date format M/d/yyyy at 30 Hz -----------",
                                                "Start Time 11:55:00", "Serial Number: NEO1C04110003", "-----------", "Accelerometer X,Accelerometer Y,Accelerometer Z", "0,0,1"]
                                                .joined(separator: "\r\n") + "\r\n", name: "export.csv", prefix: "actilife")
        #expect { try Self.read(noDate) } throws: { "\($0)".contains(":4: column 1:") && "\($0)".contains("gives no Start Date") }
    }

    @Test func datesFromTheirFormat() {
        #expect(ActiLifeHeader.day("12/20/2021", format: "M/d/yyyy") == 18_981)
        #expect(ActiLifeHeader.day("2021-12-20", format: "yyyy-MM-dd") == 18_981)
        #expect(ActiLifeHeader.day("1/1/1970", format: "d/M/yyyy") == 0)
        #expect(ActiLifeHeader.day("13/20/2021", format: "M/d/yyyy") == nil)
    }
}
