import MotionSession

/// The one-line live view of a capture on a terminal's stderr, redrawn per batch but at most
/// every ``redrawNanoseconds`` of sample time (a per-sample capture would otherwise write the
/// terminal per sample): activity, steps, cadence and rate over the last 10 s of samples, wake-ups per hour,
/// lost samples. Formatting only; the figures come from each ``MotionSession/BatchReport``.
struct LiveView {
    private var window: [(time: Int64, samples: Int, steps: Int?)] = []
    /// The window the cadence and the rate are measured over, ns of sample time.
    static let windowNanoseconds: Int64 = 10_000_000_000
    /// The shortest sample time between two redraws, ns.
    static let redrawNanoseconds: Int64 = 250_000_000
    /// Whether a line is on screen (to be cleared before a log line).
    private(set) var shown = false
    /// The last sample time of the last line drawn.
    private var drawnAt: Int64?

    /// The line for `report` (no escapes; the caller draws it with `\r` and erase-line), or nil
    /// when the last line is less than ``redrawNanoseconds`` old.
    mutating func line(_ report: BatchReport) -> String? {
        if let drawnAt, report.lastSample >= drawnAt, report.lastSample - drawnAt < Self.redrawNanoseconds { return nil }
        drawnAt = report.lastSample
        window.append((report.lastSample, report.totalSamples, report.steps))
        while let first = window.first, report.lastSample - first.time > Self.windowNanoseconds, window.count > 2 { window.removeFirst() }
        var parts: [String] = []
        if let a = report.activity {
            parts.append(a + (report.activityConfidence.map { " \(Int($0.rounded())) %" } ?? ""))
        }
        parts.append("steps " + (report.steps.map(String.init) ?? "-"))
        let first = window[0]
        let span = Double(report.lastSample - first.time) / 1e9
        if span > 0, let s0 = first.steps, let s1 = report.steps {
            parts.append("cadence \(Int((Double(s1 - s0) / span * 60).rounded()))/min")
        }
        if span > 0 { parts.append(formatFixed(Double(report.totalSamples - first.samples) / span, 1) + " Hz") }
        if let w = report.perHour(report.schedulerWakeups.map(Double.init) ?? Double(report.userspaceReturns)) {
            parts.append("wake-ups \(Int(w.rounded()))/h")
        }
        parts.append("lost \(report.lostSamples)")
        shown = true
        return parts.joined(separator: " | ")
    }

    /// The text that draws `line` over the previous one: carriage return, the line, erase to end.
    static func draw(_ line: String) -> String { "\r" + line + "\u{1B}[K" }

    /// The text that clears the line (before a log line is printed).
    mutating func clear() -> String {
        guard shown else { return "" }
        shown = false
        return "\r\u{1B}[K"
    }
}
