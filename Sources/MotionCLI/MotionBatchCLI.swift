import MotionCore

/// The `motionbatch` command line: the root command, dispatch, and exit-code conventions
/// (0 success, 1 failure, 64 usage error).
public enum MotionBatchCLI {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// The root command with every subcommand registered in ``CommandRegistry``.
    public static var root: CommandSpec {
        CommandSpec(
            name: "motionbatch",
            abstract: "Read IIO accelerometers and gyroscopes with hardware-FIFO batching, count steps, and account for CPU wake-ups.",
            subcommands: CommandRegistry.commands
        )
    }

    /// Parses `arguments` (without the executable name), runs the command, and returns the exit status.
    /// A command whose output could not be written (``CommandIO/outputFailure``) fails with exit 1.
    public static func main(_ arguments: [String], io: inout CommandIO) -> Int32 {
        let code = dispatch(arguments, io: &io)
        if let failure = io.outputFailure() {
            io.err("Error: \(failure)")
            return code == 0 ? 1 : code
        }
        return code
    }

    private static func dispatch(_ arguments: [String], io: inout CommandIO) -> Int32 {
        let rootSpec = root
        var chain = [rootSpec]
        do {
            let (outcome, resolved) = try ArgumentParser.parse(arguments, root: rootSpec)
            chain = resolved
            switch outcome {
            case .help(let target):
                io.writeOut(HelpFormatter.help(target, width: io.columns))
                return 0
            case .version:
                io.out(version)
                return 0
            case .completion(let shell):
                io.writeOut(CompletionScript.script(for: rootSpec, shell: shell))
                return 0
            case .manual(let directory):
                try ManPage.writeAll(rootSpec, into: directory, version: version, io: io)
                return 0
            case .run(let command, let parsed):
                try command.run!(parsed, &io)
                return 0
            }
        } catch let error as CLIError {
            if chain.count == 1 { chain = ArgumentParser.resolveChain(arguments, root: rootSpec) }
            // Values from the command line or files are escaped where messages quote them; this
            // is the last line of defence: no control character reaches the terminal.
            io.err("Error: \(DiagnosticText.sanitized(error.message))")
            if error.showsUsage {
                io.err(HelpFormatter.wrappedUsage(chain, width: io.columns))
                io.err("  See '\(chain.map(\.name).joined(separator: " ")) --help' for more information.")
            }
            return error.exitCode
        } catch {
            io.err("Error: \(DiagnosticText.sanitized("\(error)"))")
            return 1
        }
    }
}
