#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The width help is wrapped to, as swift-argument-parser finds it: `COLUMNS` when it is a
/// number, else the terminal's (`TIOCGWINSZ` on stdout, then stderr), else
/// ``HelpFormatter/defaultWidth``.
enum TerminalWidth {
    /// The width now (reads the environment and the terminal).
    static func current() -> Int {
        let env = getenv("COLUMNS").map { String(cString: $0) }
        var size = winsize()
        var tty: Int?
        for fd: Int32 in [1, 2] where ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            tty = Int(size.ws_col)
            break
        }
        return decide(columnsVariable: env, terminal: tty)
    }

    /// The width for a `COLUMNS` value and a terminal width (either may be absent): the variable
    /// first when it is a positive number, then the terminal, then 100; never below
    /// ``HelpFormatter/minimumWidth``.
    static func decide(columnsVariable: String?, terminal: Int?) -> Int {
        let chosen = columnsVariable.flatMap { Int($0[...].trimmingCharacters(in: " ")) }.flatMap { $0 > 0 ? $0 : nil }
            ?? terminal ?? HelpFormatter.defaultWidth
        return min(max(chosen, HelpFormatter.minimumWidth), 1000)
    }
}
