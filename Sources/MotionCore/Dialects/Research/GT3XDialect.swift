/// ActiGraph `.gt3x` files: a zip archive with `info.txt` and either `log.bin` (the current
/// format: records with checksums, ``GT3XLogDecoder``) or `activity.bin` (NEO and MRA devices
/// with firmware up to 2.5.0: 12-bit packed samples back to back, often deflated in the zip).
/// Public descriptions: actigraph/GT3X-File-Format and actigraph/NHANES-GT3X-File-Format.
///
/// Mapping (docs/dialects.md, docs/research.md): counts / scale (`info.txt`'s `Acceleration
/// Scale`, else `log.bin`'s ACCEL_SCALE parameter, else 341 for NEO, CLE and MRA serials and
/// 256 for MOS and TAS) in g → × 9.80665 m/s², on the device's axes; no gyroscope. Times are the
/// device's local time; with `info.txt`'s `TimeZone` (or `--tz` when it has none) they are
/// converted to UTC (`time_basis: utc`), else kept local (`time_basis: device-local`).
/// ActiLife shows values rounded to 3 decimals; they are kept at the device's resolution here.
struct GT3XDialect: RecordingDialect {
    static let dialectName = "gt3x"
    var name: String { Self.dialectName }
    var summary: String { "ActiGraph .gt3x (log.bin or the older NEO/MRA activity.bin, with info.txt)" }

    /// A .gt3x is a zip: recognised as an archive.
    func recognizes(_ prefix: [UInt8]) -> Bool { false }

    func makeReader(source: any RecordingByteSource, prefix: [UInt8], options: RecordingReadOptions) throws -> any RecordingRowReader {
        throw RecordingError(file: source.name, byteOffset: 0, problem: "is not an ActiGraph .gt3x file (a zip archive holding info.txt and log.bin or activity.bin)")
    }

    func recognizes(archive: any RecordingArchive) -> Bool {
        !archive.members(named: "info.txt").isEmpty
            && !(archive.members(named: "log.bin").isEmpty && archive.members(named: "activity.bin").isEmpty)
    }

    /// Largest `info.txt` read.
    static let maxInfoBytes = 1 << 16

    func makeReader(archive: any RecordingArchive, options: RecordingReadOptions) throws -> any RecordingRowReader {
        guard let infoMember = try archive.member(named: "info.txt") else {
            throw RecordingError(file: archive.name, line: nil, problem: "holds no info.txt (an ActiGraph .gt3x has one, with the sample rate)")
        }
        let info = try GT3XInfo(text: try archive.prefix(of: infoMember, count: Self.maxInfoBytes), file: archive.name + "/" + infoMember)
        let log = try archive.member(named: "log.bin")
        let member = try log ?? archive.member(named: "activity.bin")!
        if try archive.member(named: "calibration.json") != nil {
            throw RecordingError(file: archive.name + "/calibration.json", line: nil,
                                 problem: "a .gt3x with calibration.json is not read yet (its calibration is not applied by MotionBatch; docs/research.md)")
        }
        return DeviceOrderedRows(source: try GT3XRows(source: try archive.open(member), info: info, logFormat: log != nil, options: options))
    }
}
