extension UTCTime {
    /// Days since 1970-01-01 of a proleptic Gregorian date (after H. Hinnant's
    /// `days_from_civil`, the inverse of ``components(_:)``). Month 1-12, day 1-31 (not checked
    /// against the month's length: the 31st of a 30-day month is the next month's 1st).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
