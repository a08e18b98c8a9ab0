/// An error that ends a command with a message on stderr and a conventional exit code:
/// 64 (EX_USAGE) for bad command lines, 1 for failures.
public struct CLIError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, without the `Error: ` prefix.
    public var message: String
    /// Process exit status.
    public var exitCode: Int32
    /// Whether the usage line should follow the message.
    public var showsUsage: Bool

    /// A command-line usage error (exit 64, usage printed).
    public static func usage(_ message: String) -> CLIError {
        CLIError(message: message, exitCode: 64, showsUsage: true)
    }

    /// A failure while running (exit 1).
    public static func failure(_ message: String, exitCode: Int32 = 1) -> CLIError {
        CLIError(message: message, exitCode: exitCode, showsUsage: false)
    }

    public var description: String { message }
}
