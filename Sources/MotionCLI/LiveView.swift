import MotionCore
import MotionSession

/// The one-line live view of a capture on a terminal's stderr, redrawn per batch but at most
/// every ``redrawNanoseconds`` of sample time (a per-sample capture would otherwise write the
/// terminal per sample): activity, steps, cadence and rate over the last 10 s of samples, wake-ups per hour,
/// lost samples. Formatting only; the figures come from each ``MotionSession/BatchReport``.
/// The line is formatted as bytes into a buffer the view keeps (``drawn``): a redraw allocates
/// nothing (at a batch latency of 1 s the capture redraws at every wake-up).
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
    /// The bytes that draw the last line rendered (``draw(_:)`` of it), reused from redraw to redraw.
    private(set) var drawn: [UInt8] = []

    /// The line for `report` (no escapes; the caller draws it with `\r` and erase-line), or nil
    /// when the last line is less than ``redrawNanoseconds`` old.
    mutating func line(_ report: BatchReport) -> String? {
        guard render(report) else { return nil }
        return String(decoding: drawn[1..<(drawn.count - 3)], as: UTF8.self)
    }

    /// Whether a report whose last sample is at `lastSample` (ns) would be drawn: the last line is
    /// at least ``redrawNanoseconds`` old (or there is none, or the clock went back).
    func isDue(_ lastSample: Int64) -> Bool {
        guard let drawnAt, lastSample >= drawnAt else { return true }
        return lastSample - drawnAt >= Self.redrawNanoseconds
    }

    /// Renders the line for `report` into ``drawn`` as ``draw(_:)`` writes it; false (nothing
    /// rendered) when the last line is less than ``redrawNanoseconds`` old.
    mutating func render(_ report: BatchReport) -> Bool {
        guard isDue(report.lastSample) else { return false }
        drawnAt = report.lastSample
        window.append((report.lastSample, report.totalSamples, report.steps))
        while let first = window.first, report.lastSample - first.time > Self.windowNanoseconds, window.count > 2 { window.removeFirst() }
        var out: [UInt8] = []
        swap(&out, &drawn)
        out.removeAll(keepingCapacity: true)
        out.append(0x0D)
        if let a = report.activity {
            out.append(contentsOf: a.utf8)
            if let c = report.activityConfidence {
                out.append(0x20)
                DecimalDigits.append(Int64(Int(c.rounded())), to: &out)
                out.append(0x20)
                out.append(UInt8(ascii: "%"))
            }
            Self.separator(&out)
        }
        Self.text("steps ", &out)
        if let s = report.steps { DecimalDigits.append(Int64(s), to: &out) } else { out.append(UInt8(ascii: "-")) }
        let first = window[0]
        let span = Double(report.lastSample - first.time) / 1e9
        if span > 0, let s0 = first.steps, let s1 = report.steps {
            Self.separator(&out)
            Self.text("cadence ", &out)
            DecimalDigits.append(Int64(Int((Double(s1 - s0) / span * 60).rounded())), to: &out)
            Self.text("/min", &out)
        }
        if span > 0 {
            Self.separator(&out)
            appendFixed(Double(report.totalSamples - first.samples) / span, 1, to: &out)
            Self.text(" Hz", &out)
        }
        if let w = report.perHour(report.schedulerWakeups.map(Double.init) ?? Double(report.userspaceReturns)) {
            Self.separator(&out)
            Self.text("wake-ups ", &out)
            DecimalDigits.append(Int64(Int(w.rounded())), to: &out)
            Self.text("/h", &out)
        }
        Self.separator(&out)
        Self.text("lost ", &out)
        DecimalDigits.append(Int64(report.lostSamples), to: &out)
        Self.text("\u{1B}[K", &out)
        swap(&out, &drawn)
        shown = true
        return true
    }

    private static func separator(_ out: inout [UInt8]) { text(" | ", &out) }

    private static func text(_ s: StaticString, _ out: inout [UInt8]) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
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
