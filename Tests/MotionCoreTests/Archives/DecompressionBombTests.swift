import Foundation
@testable import MotionCore
import MotionTestSupport
import Testing

/// Inputs that expand or repeat without end (docs/bad-input.md, "Archives, spools and bombs"):
/// each ends within seconds with an answer or an error naming where, and no fixed size cap refuses
/// a long real recording (``DatasetBoundsTests``).
@Suite struct DecompressionBombTests {
    static let header = Array("time_s,accel_x,accel_y,accel_z\n".utf8)
    static let rows = Array("0.00,1.5,2.25,-9.75\n0.01,1.5,2.5,-9.75\n0.02,1.25,2.5,-9.5\n0.03,1.5,2.25,-9.75\n".utf8)
    static let lastRow = Array("0.03,1.5,2.25,-9.75\n".utf8)
    static let layout = "accel_x:le:s16/16>>0:0.0023942,accel_y:le:s16/16>>0:0.0023942,accel_z:le:s16/16>>0:0.0023942,timestamp:le:s64/64>>0"

    static func iioOptions() throws -> RecordingReadOptions {
        var d = RecordingDialectOptions()
        d.scanLayout = try IIOBufferLayout(parsing: layout)
        return RecordingReadOptions(dialect: d)
    }

    /// A header, 4 rows and the last repeated: past ``TimestampDefectFilter/maxDuplicateRun`` an
    /// error naming the line (plain and gzip-compressed); at the bound, read with the duplicates counted.
    @Test(arguments: [false, true])
    func anEndlessRunOfDuplicateRowsIsAnError(gzip: Bool) throws {
        let run = TimestampDefectFilter.maxDuplicateRun
        func bytes(_ repeats: Int) -> [UInt8] {
            gzip ? ArchiveFixtures.deflate(head: Self.header + Self.rows, repeating: Self.lastRow, times: repeats, gzip: true)
                : Self.header + Self.rows + Array([[UInt8]](repeating: Self.lastRow, count: repeats).joined())
        }
        let over = ArchiveFixtures.message { try ArchiveFixtures.drain(RecordingReader(input: .bytes(bytes(run + 1), name: "bomb.csv"))) }
        #expect(over == "bomb.csv:\(run + 6): column 1 (time_s): more than \(run) consecutive exact duplicates of the rows at line 5 (the limit of the tolerated duplicate-row defect: one hour at 100 Hz): an endless input of one repeated row (/dev/zero, a decompression bomb)?")
        let at = try RecordingReader(input: .bytes(bytes(run), name: "bomb.csv"))
        #expect(try ArchiveFixtures.drain(at) == 4)
        #expect(at.warnings.first { $0.kind == .duplicateRow }?.count == run)
    }

    /// A gzip of zeros (deflate's best case, about 1030:1) passes the default 1000:1 bound: an
    /// error naming the line and compressed offset; with a higher `--max-ratio` it decompresses.
    @Test func aGzipOfZerosPassesTheRatioBound() throws {
        let gz = ArchiveFixtures.deflate(repeating: [UInt8](repeating: 0, count: 4096), times: 4096, gzip: true)
        func drain(_ limits: ArchiveLimits) throws -> Int {
            let g = try GzipSource(inner: RecordingMemorySource(gz, name: "zeros.gz"), prefix: [], limits: limits)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var total = 0
            while true {
                let n = try buffer.withUnsafeMutableBytes { b in try g.read(into: b.baseAddress!, count: b.count) }
                if n == 0 { return total }
                total += n
            }
        }
        let text = ArchiveFixtures.message { _ = try drain(ArchiveLimits()) }
        #expect(text?.hasPrefix("zeros.gz:1:") == true && text?.contains("(more than 1000:1): a decompression bomb?") == true, "\(text ?? "no error")")
        #expect(try drain(ArchiveLimits(maxRatio: 2000)) == 16 << 20)
    }

    /// The same gzip read as a raw IIO buffer (the issue's case) ends within seconds with an error.
    @Test func aGzipOfZerosAsAnIIOBufferEnds() throws {
        let gz = ArchiveFixtures.deflate(repeating: [UInt8](repeating: 0, count: 4096), times: 1 << 14, gzip: true)
        let text = ArchiveFixtures.message {
            try ArchiveFixtures.drain(RecordingReader(input: .bytes(gz, name: "zeros.bin.gz"), dialect: RecordingDialects.named("iio"), options: Self.iioOptions()))
        }
        #expect(text?.contains("a decompression bomb") == true, "\(text ?? "no error")")
    }

    /// `/dev/zero` with `--layout`: one scan repeated without end, stopped by the duplicate run.
    @Test func devZeroWithALayoutEnds() throws {
        let text = ArchiveFixtures.message {
            try ArchiveFixtures.drain(RecordingReader(input: .path("/dev/zero"), dialect: RecordingDialects.named("iio"), options: Self.iioOptions()))
        }
        #expect(text?.hasPrefix("/dev/zero:\(TimestampDefectFilter.maxDuplicateRun + 2):") == true, "\(text ?? "no error")")
        #expect(text?.contains("consecutive exact duplicates of the rows at line 1") == true)
    }

    /// A zip member whose directory declares more than 1000:1, and one that expands past it while
    /// read (its declared sizes modest): errors naming the member and the offset.
    @Test func zipMembersPastTheRatioAreRefused() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        var declared = ArchiveFixtures.Member("Accelerometer.csv", Array("time,seconds_elapsed,z,y,x\n".utf8))
        declared.declaredSize = 1 << 30
        let a = try ZipArchive(bytes: RecordingMemorySource(ArchiveFixtures.zip([declared]), name: "a.zip"), name: "a.zip", identity: nil)
        let text = ArchiveFixtures.message { _ = try a.open("Accelerometer.csv") }
        #expect(text?.hasPrefix("a.zip/Accelerometer.csv: byte 0: declares 1073741824 bytes from") == true, "\(text ?? "no error")")
        var running = ArchiveFixtures.Member("Accelerometer.csv", zeros)
        running.padding = 1 << 20
        let b = try ZipArchive(bytes: RecordingMemorySource(ArchiveFixtures.zip([running]), name: "b.zip"), name: "b.zip", identity: nil)
        let read = ArchiveFixtures.message { _ = try b.prefix(of: "Accelerometer.csv", count: 8 << 20) }
        #expect(read?.contains("b.zip/Accelerometer.csv") == true && read?.contains("expands to") == true, "\(read ?? "no error")")
    }

    /// An export whose secondary stream repeats its last row without end (a Sensor Logger iOS zip's
    /// Gravity.csv, a phyphox zip's Gyroscope.csv): an error naming that member.
    @Test(arguments: [("sensor-logger-ios", "Gravity.csv"), ("phyphox.zip", "Gyroscope.csv")])
    func anExportWithASecondaryStreamBombEnds(fixture: String, member: String) throws {
        var members: [ArchiveFixtures.Member]
        if fixture.hasSuffix(".zip") {
            let path = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/Dialects/walk/" + fixture).path
            let archive = try ZipArchive(bytes: RecordingMemorySource([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: fixture), name: fixture, identity: nil)
            members = try archive.members.map { ArchiveFixtures.Member($0, try archive.prefix(of: $0, count: 1 << 20)) }
        } else {
            members = try ArchiveFixtures.sensorLoggerIOS().map { ArchiveFixtures.Member($0.name, $0.data) }
        }
        let i = try #require(members.firstIndex { $0.name == member })
        let last = Array(members[i].data.split(separator: 0x0A).last!) + [0x0A]
        members[i].data += Array([[UInt8]](repeating: last, count: TimestampDefectFilter.maxDuplicateRun + 1).joined())
        let text = ArchiveFixtures.message { try ArchiveFixtures.drain(RecordingReader(input: .bytes(ArchiveFixtures.zip(members), name: "bomb.zip"))) }
        #expect(text?.hasPrefix("bomb.zip/\(member):") == true && text?.contains("consecutive exact duplicates") == true, "\(text ?? "no error")")
    }
}
