import MotionCore

extension FuzzTargets {
    /// The header parsers (every dialect's, through ``RecordingReader``'s entry point): any bytes
    /// give a header or a line- and column-numbered printable error, and a header that was read,
    /// written again by ``RecordingEncoder``, reads back the same.
    @Sendable public static func recordingHeader(_ data: [UInt8]) {
        let header: RecordingHeader
        do {
            header = try RecordingReader(input: .bytes(data, name: "fuzz.csv"), options: RecordingReadOptions(threads: 1)).header
        } catch let error as RecordingError {
            checkError(error)
            return
        } catch {
            FuzzInvariant.check(false, "unexpected error type from memory: \(error)")
            return
        }
        let text: [UInt8]
        let expected: RecordingHeader
        do {
            let encoder = try RecordingEncoder(header: header, path: "roundtrip")
            text = encoder.headerText
            expected = encoder.header
        } catch {
            FuzzInvariant.check(false, "a header that was read cannot be written: \(error)")
            return
        }
        do {
            let again = try RecordingReader(input: .bytes(text, name: "roundtrip"), options: RecordingReadOptions(threads: 1)).header
            FuzzInvariant.check(again == expected, "header changes in a round trip")
        } catch {
            FuzzInvariant.check(false, "a header that was written does not read back: \(error)")
        }
    }
}
