/// Formats instants (ns since the Unix epoch) as UTC calendar times, without a calendar library:
/// the proleptic Gregorian calendar (days to civil date after H. Hinnant's `civil_from_days`).
public enum UTCTime {
    /// `2026-12-01T09:19:18Z` (ISO 8601, whole seconds): the `start_utc` header value.
    public static func iso8601(_ ns: Int64) -> String {
        let (y, mo, d, h, mi, s) = components(ns)
        return "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(h, 2)):\(pad(mi, 2)):\(pad(s, 2))Z"
    }

    /// `2026-12-01T09-19-18Z`: the same without colons, for file names (FAT file systems on SD
    /// cards refuse `:`); such names sort in time order.
    public static func fileStamp(_ ns: Int64) -> String {
        let (y, mo, d, h, mi, s) = components(ns)
        return "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(h, 2))-\(pad(mi, 2))-\(pad(s, 2))Z"
    }

    /// Year, month, day, hour, minute, second of `ns` (floored to the second).
    public static func components(_ ns: Int64) -> (Int, Int, Int, Int, Int, Int) {
        let seconds = ns >= 0 ? ns / 1_000_000_000 : (ns - 999_999_999) / 1_000_000_000
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(abs(v))
        return (v < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
