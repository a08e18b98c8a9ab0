import MotionCore

/// The one way the commands report tolerated defects of a recording (`replay`, `steps`,
/// `activity`, `convert`, `emulate`, `wakes`): one line per kind of defect and file on stderr,
/// `FILE:LINE: warning: MESSAGE (N times; first on lines ...)`, and in `--json` output one object
/// per kind (README.md, docs/dialects.md).
enum WarningReport {
    /// Writes each warning as one line to stderr.
    static func print(_ warnings: [RecordingWarning], to io: CommandIO) {
        for w in warnings { io.err(w.description) }
    }

    /// The warnings as a JSON array of `{kind, file, count, first_lines, message}`.
    static func json(_ warnings: [RecordingWarning]) -> JSONValue {
        .array(warnings.map { w in
            .object([
                ("kind", .string(w.kind.rawValue)),
                ("file", .string(w.file)),
                ("count", .number(w.count)),
                ("first_lines", .array(w.firstLines.map { .number($0) })),
                ("message", .string(w.message)),
            ])
        })
    }
}
