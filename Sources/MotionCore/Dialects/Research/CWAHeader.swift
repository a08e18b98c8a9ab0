/// The 1024-byte header block of an Axivity `.cwa` file (openmovementproject/openmovement
/// `Docs/ax3/cwa.h`, `cwa_header_t`; little-endian, packed): `MD`, its length, the hardware
/// type (0x00, 0x17, 0xFF: AX3; 0x64: AX6), the device id (lower and upper words), the session
/// id, the sensor configuration (AX6: the gyroscope range), the sampling rate code, the firmware
/// revision. Its time zone field is unused (docs/research.md, "Time").
struct CWAHeader: Sendable, Equatable {
    /// The header's first bytes (at least 64: the fields read are all in them).
    let bytes: [UInt8]
    /// Where the first data block starts: the header's length (its @2 field plus 4, 1024 as
    /// documented) rounded up to a 512-byte block.
    let dataOffset: Int

    /// Bytes read to recognise and parse the header.
    static let size = 1024

    /// Whether `prefix` starts like a CWA file: `MD` and a header length the format allows.
    static func recognizes(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 4, prefix[0] == 0x4D, prefix[1] == 0x44 else { return false }
        return (508...65_532).contains(Int(prefix[2]) | Int(prefix[3]) << 8)
    }

    /// Parses the first bytes of the file (at least 64).
    /// - Throws: ``RecordingError`` naming the byte offset when they are not a CWA header.
    init(_ b: [UInt8], file: String) throws {
        guard b.count >= 64, Self.recognizes(b) else {
            throw RecordingError(file: file, byteOffset: 0, problem: "is not an Axivity CWA file (no 'MD' header block of at least 512 bytes)")
        }
        bytes = Array(b.prefix(64))
        let length = (Int(b[2]) | Int(b[3]) << 8) + 4
        dataOffset = (length + 511) / 512 * 512
    }

    private func u16(_ o: Int) -> UInt32 { UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 }

    /// @4: 0x00, 0x17 or 0xFF for an AX3, 0x64 for an AX6.
    var hardwareType: UInt8 { bytes[4] }
    /// @5 and @11: the lower and upper words of the device id (an upper 0xFFFF read as 0).
    var deviceID: UInt32 { (u16(11) == 0xFFFF ? 0 : u16(11)) << 16 | u16(5) }
    /// @7: the recording session's id.
    var sessionID: UInt32 { u16(7) | u16(9) << 16 }
    /// @35: 0x00 or 0xFF accelerometer only, else the gyroscope range in the bottom nibble.
    var sensorConfig: UInt8 { bytes[35] }
    /// @36: the sampling rate and range code.
    var rateCode: UInt8 { bytes[36] }
    /// @41: the firmware revision.
    var firmwareRevision: UInt8 { bytes[41] }

    /// AX6 (hardware type 0x64), else AX3.
    var model: String { hardwareType == 0x64 ? "AX6" : "AX3" }

    /// The gyroscope range the header configures (bottom nibble `n` of the sensor
    /// configuration: 8000 / 2^n dps), nil for accelerometer only.
    var gyroRangeDPS: Double? {
        guard sensorConfig != 0 && sensorConfig != 0xFF, sensorConfig & 0x0F >= 1 else { return nil }
        return 8000 / Double(1 << Int(sensorConfig & 0x0F))
    }

    /// The sampling rate of a rate code: 3200 / 2^(15 − low nibble) Hz.
    static func rateHz(code: UInt8) -> Double { 3200 / Double(1 << (15 - Int(code & 0x0F))) }
    /// The accelerometer range of a rate code: ±16 >> (code >> 6) g.
    static func rangeG(code: UInt8) -> Int { 16 >> Int(code >> 6) }
}
