import MotionCore
import WakeCost

extension FuzzTargets {
    /// The board-profile JSON: any bytes give a profile or an error naming the file, line and
    /// column, printable; a profile that was read gives a wake-cost report (table, text, JSON, CSV, HTML) with
    /// no NaN or infinity anywhere, across the widest rates and latencies the options accept.
    @Sendable public static func boardProfile(_ data: [UInt8]) {
        let profile: BoardProfile
        do {
            profile = try BoardProfile.parseJSON(data, file: "fuzz.json")
        } catch {
            FuzzInvariant.check(error.description.hasPrefix("fuzz.json:") && error.position != nil, "error without a position: \(error)")
            FuzzInvariant.check(FuzzInvariant.isPrintableMessage(error.description), "error text not escaped: \(error.description.debugDescription)")
            return
        }
        let rates = [InputLimits.rate.lowerBound, 50, InputLimits.rate.upperBound]
        let latencies = [0, 1, InputLimits.duration.upperBound]
        for buffering in [Buffering.hardware, .software, .timed] {
            let report = WakeReport(board: profile, predictions: WakeCostModel.sweep(rates: rates, latencies: latencies, buffering: buffering,
                                                                                     sensors: [.accel, .gyro], board: profile))
            for text in [report.table(), report.text(), report.json(), report.csv(), report.html(title: "fuzz")] {
                FuzzInvariant.check(!FuzzInvariant.containsNonFiniteWord(text), "non-finite number in a report: \(text.prefix(400))")
            }
        }
    }
}
