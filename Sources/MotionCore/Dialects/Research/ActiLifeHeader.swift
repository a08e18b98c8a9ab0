/// What ActiLife's CSV header block says: the rate and date format of its first line, the
/// serial number, and the start date and time (local, no zone).
struct ActiLifeHeader: Sendable, Equatable {
    /// `at 30 Hz` of the first line.
    var rate: Int?
    /// `date format M/d/yyyy` of the first line (default `M/d/yyyy`).
    var dateFormat = "M/d/yyyy"
    /// The device of the first line (`GT3X+`).
    var device: String?
    /// `Serial Number: ...`.
    var serial: String?
    /// `Start Time HH:mm:ss`, seconds of the day.
    var startTime: Int?
    /// `Start Date ...` as in `dateFormat`, days since 1970-01-01.
    var startDay: Int64?
    private var startLine = 0

    /// The first line: `... By ActiGraph DEVICE ActiLife vX Firmware vY date format F at N Hz ...`.
    mutating func parseTitle(_ text: String, file: String) throws {
        let words = text.split(separator: " ").map(String.init)
        if let i = words.firstIndex(of: "ActiGraph"), i + 1 < words.count { device = words[i + 1] }
        if let i = words.firstIndex(of: "format"), i > 0, words[i - 1] == "date", i + 1 < words.count { dateFormat = words[i + 1] }
        guard let i = words.firstIndex(of: "Hz"), i > 0, let r = Int(words[i - 1]), (1...10_000).contains(r), words[i - 2] == "at" else {
            throw RecordingError(file: file, line: 1, column: 1, problem: "ActiLife's first line gives no sample rate ('at N Hz')")
        }
        rate = r
    }

    /// One line of the block (`Serial Number: X`, `Start Time 11:55:00`, `Start Date 12/20/2021`).
    mutating func parse(line text: String, number: Int, file: String) throws {
        if text.hasPrefix("Serial Number:") {
            serial = String(text.dropFirst("Serial Number:".count)).trimmingWhitespace()
        } else if text.hasPrefix("Start Time ") {
            let v = String(text.dropFirst("Start Time ".count)).trimmingWhitespace()
            let p = v.split(separator: ":").map { Int($0) }
            guard p.count == 3, let h = p[0], let m = p[1], let s = p[2], (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s) else {
                throw RecordingError(file: file, line: number, column: 12, problem: "Start Time: expected HH:mm:ss, found \(DiagnosticText.quoted(v))")
            }
            startTime = h * 3600 + m * 60 + s
        } else if text.hasPrefix("Start Date ") {
            let v = String(text.dropFirst("Start Date ".count)).trimmingWhitespace()
            guard let day = Self.day(v, format: dateFormat) else {
                throw RecordingError(file: file, line: number, column: 12, problem: "Start Date: expected a date as \(DiagnosticText.quoted(dateFormat)) (the first line's date format), found \(DiagnosticText.quoted(v))")
            }
            startDay = day
            startLine = number
        }
    }

    /// The start as ns since the local epoch; `blockEnd` is the line of the `-----` that ends the
    /// header block (where a missing line is reported).
    func startLocalNs(file: String, blockEnd: Int) throws -> Int64 {
        guard let startDay, let startTime else {
            throw RecordingError(file: file, line: blockEnd, column: 1,
                                 problem: "ActiLife's header block (lines 1-\(blockEnd)) gives no \(startDay == nil ? "Start Date" : "Start Time")")
        }
        return (startDay * 86_400 + Int64(startTime)) * 1_000_000_000
    }

    /// `value` read by `format` (tokens `d`/`dd`, `M`/`MM`, `yyyy` between one kind of separator:
    /// `M/d/yyyy`, `dd.MM.yyyy`, `yyyy-MM-dd`), as days since 1970-01-01; nil when it does not fit.
    static func day(_ value: String, format: String) -> Int64? {
        guard let sep = format.first(where: { !$0.isLetter }) else { return nil }
        let keys = format.split(separator: sep).map { $0.first ?? " " }
        let parts = value.split(separator: sep).map { Int($0) }
        guard keys.count == 3, parts.count == 3, parts.allSatisfy({ $0 != nil }) else { return nil }
        var y = 0, m = 0, d = 0
        for (k, v) in zip(keys, parts) {
            switch k {
            case "y": y = v!
            case "M": m = v!
            case "d": d = v!
            default: return nil
            }
        }
        guard (1900...2200).contains(y), (1...12).contains(m), (1...31).contains(d) else { return nil }
        return UTCTime.daysFromCivil(y, m, d)
    }
}
