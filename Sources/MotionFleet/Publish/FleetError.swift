import MotionCore
/// What the fleet commands refuse or fail at, each with the remedy.
public enum FleetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL could not be parsed.
    case invalidURL(String, String)
    /// A plain connection to a host that is not loopback without `--insecure`.
    case insecure(String)
    /// The board id is not usable as a topic level.
    case invalidBoardID(String)
    /// A file of the fleet (outbox, collected NDJSON) is malformed at `line`, `column`.
    case malformed(file: String, line: Int, column: Int, problem: String)
    /// A `samples` message (named by `message`) cannot be encoded or read back: at the batch's
    /// `row` (1-based) and field `column` when they are known.
    case samples(message: String, row: Int?, column: Int?, problem: String)
    /// A file could not be read or written.
    case io(String)

    /// One sentence with the remedy.
    public var description: String {
        switch self {
        case let .invalidURL(url, why): "invalid broker URL \(DiagnosticText.quoted(url)): \(why)"
        case .insecure(let host):
            "\(DiagnosticText.quoted(host)) is not loopback: use mqtts:// with --ca-file (or pass --insecure to send in clear text)"
        case .invalidBoardID(let id):
            "invalid board id \(DiagnosticText.quoted(id)): use 1-64 letters, digits, '-' or '_'"
        case let .malformed(file, line, column, problem): "\(file):\(line):\(column): \(problem)"
        case let .samples(message, row, column, problem):
            "\(message)" + (row.map { ", row \($0)" } ?? "") + (column.map { ", column \($0)" } ?? "") + ": \(problem)"
        case .io(let s): s
        }
    }
}
