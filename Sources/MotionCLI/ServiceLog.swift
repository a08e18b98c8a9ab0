#if canImport(Glibc)
import Glibc
#endif
import MotionSession

/// How a capture session's events are written to stderr for whoever reads it: one line per
/// event, never a terminal escape unless stderr is a terminal, and with the syslog priority as a
/// `<N>` prefix when stderr is systemd's journal (which then files each line at its level).
struct ServiceLog {
    /// Who reads stderr.
    enum Style: Equatable {
        /// A terminal: `LEVEL: message` lines, and a live view redrawn in place.
        case terminal
        /// A file, a pipe or a service manager other than the journal: `LEVEL: message`.
        case plain
        /// systemd's journal (`JOURNAL_STREAM` names stderr): `<N>message`.
        case journal
    }

    /// The style in use.
    let style: Style

    /// The style for stderr: the journal when `JOURNAL_STREAM` (`DEVICE:INODE`, decimal, as
    /// systemd sets it for a service's stdout/stderr stream) names stderr's device and inode; a
    /// terminal when stderr is one; plain otherwise. (systemd documents comparing the variable
    /// with the descriptor: a child whose stderr was redirected must not prefix its lines.)
    static func detect(stderrIsTerminal: Bool, journalStream: String?, stderrIdentity: (device: UInt64, inode: UInt64)?) -> Style {
        if let value = journalStream, let id = stderrIdentity {
            let parts = value.split(separator: ":")
            if parts.count == 2, UInt64(parts[0]) == id.device, UInt64(parts[1]) == id.inode { return .journal }
        }
        return stderrIsTerminal ? .terminal : .plain
    }

    /// The process's stderr as `detect` sees it (`getenv("JOURNAL_STREAM")`, `fstat(2)`).
    static func forStandardError(isTerminal: Bool) -> ServiceLog {
        var st = stat()
        let id: (UInt64, UInt64)? = fstat(2, &st) == 0 ? (UInt64(st.st_dev), UInt64(st.st_ino)) : nil
        let env = getenv("JOURNAL_STREAM").map { String(cString: $0) }
        return ServiceLog(style: detect(stderrIsTerminal: isTerminal, journalStream: env, stderrIdentity: id))
    }

    /// The line for `event` (without the newline).
    func line(_ event: SessionEvent) -> String {
        switch style {
        case .journal: "<\(event.priority.rawValue)>" + event.message
        case .plain, .terminal: Self.level(event.priority) + ": " + event.message
        }
    }

    /// `error`, `warning`, `notice`, `info`.
    static func level(_ p: SessionEvent.Priority) -> String {
        switch p {
        case .error: "error"
        case .warning: "warning"
        case .notice: "notice"
        case .info: "info"
        }
    }
}
