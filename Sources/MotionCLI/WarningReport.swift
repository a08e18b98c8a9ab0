import MotionCore

/// The one way the commands report tolerated defects of a recording (`replay`, `steps`,
/// `convert`, `emulate`, `wakes`): one line per warning on stderr, `FILE:LINE: warning: MESSAGE`,
/// and the same text in `--json` output.
enum WarningReport {
    /// Writes each warning as one line to stderr.
    static func print(_ warnings: [RecordingWarning], to io: CommandIO) {
        for w in warnings { io.err(w.description) }
    }

    /// The warnings as a JSON array of strings (the stderr lines).
    static func json(_ warnings: [RecordingWarning]) -> JSONValue {
        .array(warnings.map { .string($0.description) })
    }
}
