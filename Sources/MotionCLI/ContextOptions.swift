import MotionCore
import MotionIIO
import MotionSystem

/// The IIO context options shared by `devices` and `capture`, with libiio's tools' spelling:
/// `-u/--uri URI` and `-T/--timeout MS` (as `iio_info`/`iio_readdev`).
enum ContextOptions {
    /// `-u/--uri` and `-T/--timeout`.
    static let options: [OptionSpec] = [
        .option("uri", short: "u", value: "URI", help: "IIO context URI: local: (default), ip:HOST[:PORT] for a board running iiod, xml:FILE."),
        .option("timeout", short: "T", value: "MS", help: "Timeout of context operations, ms (libiio's default: 1000 local, 5000 ip:; 0 waits forever)."),
    ]

    /// The URI asked for (`local:` by default).
    static func uri(_ args: ParsedArguments) -> String { args.string("uri") ?? "local:" }

    /// Opens the context (wraps ``IIOContext/init(uri:)`` and `iio_context_set_timeout`).
    /// - Throws: ``CLIError/failure(_:exitCode:)`` with the access state and its remedy
    ///   (no IIO subsystem, permission denied, an unreachable board); usage errors for a bad -T.
    /// - Parameter failed: called with the error and the state it reveals before the throw
    ///   (`devices --json` prints them).
    static func open(_ args: ParsedArguments, failed: (SystemError, AccessState?) -> Void = { _, _ in }) throws(CLIError) -> IIOContext {
        let uri = uri(args)
        let timeout = try args.int("timeout", rule: InputLimits.count.narrowed(to: 0...Double(Int32.max)))
        let context: IIOContext
        do { context = try IIOContext(uri: uri) } catch {
            let s = state(for: error, uri: uri)
            failed(error, s)
            var msg = "cannot open IIO context '\(uri)': \(error)"
            if let s { msg += "\n\(s.message)\n\(s.remedy)" }
            throw CLIError.failure(msg)
        }
        if let t = timeout {
            context.operationTimeoutMs = UInt32(t)
            do { try context.setTimeout(milliseconds: UInt32(t)) } catch { throw CLIError.failure("cannot set the timeout of '\(uri)': \(error)") }
        }
        return context
    }

    /// The access state a failed context creation reveals: for `local:` from the errno, for
    /// `ip:` the board is unreachable.
    static func state(for error: SystemError, uri: String) -> AccessState? {
        if uri.hasPrefix("ip:") { return .unreachable(uri: uri) }
        if uri.hasPrefix("local") { return AccessState.from(errno: error.errno, device: nil, path: nil, duringCapture: false) }
        return nil
    }
}
