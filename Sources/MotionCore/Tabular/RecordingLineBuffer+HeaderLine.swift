extension RecordingLineBuffer {
    /// The next line of a text export's header as bytes: a UTF-8 byte-order mark removed from
    /// the first line, and refused when it is missing, torn, too long or not printable UTF-8.
    /// - Parameters:
    ///   - name: the file named in errors.
    ///   - number: the line's 1-based number.
    ///   - what: what the line should hold, for messages (`header line`).
    /// - Throws: ``RecordingError``.
    func headerLine(name: String, number: Int, what: String = "header line") throws -> [UInt8] {
        guard let bytes = try nextHeaderLine(name: name, number: number, what: what, allowingTabs: true) else {
            throw RecordingError(file: name, line: number, column: 1, problem: number == 1 ? "missing header: the file is empty" : "missing \(what): the file ends")
        }
        return bytes
    }

    /// The next header line (MotionBatch's own header block and the apps' column lines alike), or
    /// nil at the end of the file: a UTF-8 byte-order mark removed from line 1; refused when torn,
    /// too long, or not printable UTF-8 (with `allowingTabs`, a tab separates fields, as in
    /// phyphox's "Tabulator" export; every other control character is refused).
    /// - Throws: ``RecordingError`` naming `name`, line `number` and the column.
    func nextHeaderLine(name: String, number: Int, what: String, allowingTabs: Bool) throws -> [UInt8]? {
        guard let l = try next() else { return nil }
        switch l {
        case .line(let p, let n):
            var bytes = Array(UnsafeBufferPointer(start: p, count: n))
            if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // from spreadsheets
            if let bad = DiagnosticText.firstUnprintableOffset(allowingTabs ? bytes.map { $0 == 0x09 ? 0x20 : $0 } : bytes) {
                throw RecordingError(file: name, line: number, column: bad + 1,
                                     problem: "\(what) \(DiagnosticText.quoted(bytes, limit: 60)) is not printable UTF-8 text (control characters and invalid bytes are not allowed)")
            }
            return bytes
        case .torn(let count):
            throw RecordingError(file: name, line: number, column: count + 1, problem: "the file ends inside the header (\(what) has no newline)")
        case .tooLong:
            throw RecordingError(file: name, line: number, column: capacity + 1, problem: "line is longer than \(capacity) bytes")
        }
    }

    /// The first line of `prefix` (a BOM removed), for recognising a dialect; nil when the prefix
    /// holds no complete line and `allowPartial` is false.
    static func firstLine(of prefix: [UInt8], allowPartial: Bool = false) -> [UInt8]? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let nl = bytes.firstIndex(of: 0x0A) else { return allowPartial ? Array(bytes) : nil }
        var line = bytes[..<nl]
        if line.last == 0x0D { line = line.dropLast() }
        return Array(line)
    }
}
