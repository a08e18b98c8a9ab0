import MotionSystem

/// A one-line progress indicator drawn on stderr with carriage returns, only when stderr is a
/// terminal (nothing on a pipe or a file): for an input of known size a bar, the percentage and the
/// time left; for a stream of unknown size (standard input) the bytes read and the rate. The label
/// names the input, so several inputs each get their own line in turn. Redrawn at most every
/// 100 ms, so it costs nothing measurable. The time is injected (``now``); ``line(label:done:total:elapsedNs:columns:)``
/// renders without I/O.
struct ProgressBar {
    private let total: Int
    private let enabled: Bool
    private let label: String
    private let columns: Int
    private let now: () -> Int64
    private let start: Int64
    private var lastDrawNs: Int64 = .min
    private var drawn = 0

    /// The least time between two redraws (ns).
    static let redrawIntervalNs: Int64 = 100_000_000

    /// A bar for an input of `total` bytes (0: unknown, a stream), drawn on `io`'s stderr when it is a terminal.
    init(label: String, total: Int, io: CommandIO, now: @escaping () -> Int64 = MonotonicClock.nanoseconds) {
        self.label = label
        self.total = max(total, 0)
        self.enabled = io.stderrIsTerminal
        self.columns = io.columns
        self.now = now
        self.start = now()
    }

    /// Draws the progress for `done` bytes read.
    mutating func update(_ done: Int, io: CommandIO) {
        guard enabled else { return }
        let t = now()
        guard lastDrawNs == .min || t - lastDrawNs >= Self.redrawIntervalNs else { return }
        lastDrawNs = t
        let text = Self.line(label: label, done: done, total: total, elapsedNs: t - start, columns: columns)
        io.writeErr("\r" + text + String(repeating: " ", count: max(0, drawn - text.count)))
        drawn = text.count
    }

    /// Clears the line (once: a second call writes nothing).
    mutating func finish(io: CommandIO) {
        guard enabled, drawn > 0 else { return }
        io.writeErr("\r" + String(repeating: " ", count: drawn) + "\r")
        drawn = 0
    }

    /// The progress line, at most `columns - 1` wide: `LABEL [####    ]  42 %  ETA 12 s` for a known
    /// total (the time left once 1 % and half a second have passed), `LABEL 12.3 MiB read, 4.1 MiB/s`
    /// for an unknown one (`total` 0). The label is shortened from its start to fit.
    static func line(label: String, done: Int, total: Int, elapsedNs: Int64, columns: Int) -> String {
        let width = max(columns - 1, 20)
        let done = max(done, 0)
        let seconds = Double(max(elapsedNs, 0)) / 1e9
        var tail: String
        var barWidth = 0
        if total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let percent = Int(fraction * 100)
            tail = " \(String(repeating: " ", count: max(0, 3 - String(percent).count)))\(percent) %"
            if fraction >= 0.01, seconds >= 0.5, fraction < 1 {
                tail += "  ETA " + duration(seconds * (1 - fraction) / fraction)
            }
            barWidth = min(30, max(0, width - tail.count - 14))
        } else {
            tail = " " + bytes(done) + " read" + (seconds >= 0.5 ? ", " + bytes(Int(Double(done) / seconds)) + "/s" : "")
        }
        let bar: String
        if barWidth >= 5 {
            let filled = min(barWidth, Int(Double(barWidth) * min(1, Double(done) / Double(max(total, 1)))))
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: " ", count: barWidth - filled) + "]"
        } else {
            bar = ""
        }
        let room = width - bar.count - tail.count
        var shown = label
        if shown.count > room { shown = room > 3 ? "..." + String(shown.suffix(room - 3)) : "" }
        return String((shown + bar + tail).prefix(width))
    }

    /// `12 s`, `3 min 05 s`, `2 h 07 min`.
    static func duration(_ s: Double) -> String {
        guard s.isFinite, s >= 0 else { return "?" }
        let t = Int(s.rounded())
        if t < 60 { return "\(t) s" }
        if t < 3600 { return "\(t / 60) min \(t % 60 < 10 ? "0" : "")\(t % 60) s" }
        return "\(t / 3600) h \((t % 3600) / 60 < 10 ? "0" : "")\((t % 3600) / 60) min"
    }

    /// `512 B`, `12.3 KiB`, `4.1 MiB`, `1.2 GiB`.
    static func bytes(_ n: Int) -> String {
        if n < 1024 { return "\(n) B" }
        var v = Double(n) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if v < 1024 || unit == "GiB" { return "\((v * 10).rounded() / 10) \(unit)" }
            v /= 1024
        }
        return "\(n) B"
    }
}
