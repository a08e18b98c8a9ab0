/// A one-line progress bar drawn on stderr with carriage returns, only when stderr is a terminal.
/// Redraws at most once per percent so that it costs nothing measurable.
struct ProgressBar {
    private let total: Int
    private let enabled: Bool
    private var lastPercent = -1
    private let label: String

    init(label: String, total: Int, io: CommandIO) {
        self.label = label
        self.total = max(total, 1)
        self.enabled = io.stderrIsTerminal && total > 0
    }

    /// Draws the bar for `done` out of `total`.
    mutating func update(_ done: Int, io: CommandIO) {
        guard enabled else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = percent * width / 100
        io.writeErr("\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)%")
    }

    /// Clears the line.
    func finish(io: CommandIO) {
        guard enabled else { return }
        io.writeErr("\r" + String(repeating: " ", count: label.count + 40) + "\r")
    }
}
