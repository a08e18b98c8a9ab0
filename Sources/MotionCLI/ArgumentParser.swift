import MotionCore

/// Parses `argv` words against a ``CommandSpec`` tree, by hand, with swift-argument-parser's
/// conventions: `--long value`, `--long=value`, `-s value`, `--` ends options, `-h/--help`,
/// `help SUBCOMMAND`, and "Did you mean" suggestions for misspelled options and subcommands.
public enum ArgumentParser {
    /// What the command line asks for.
    public enum Outcome {
        /// Run `command` with `arguments`.
        case run(CommandSpec, ParsedArguments)
        /// Print help for the command at `path`.
        case help([CommandSpec])
        /// Print the version.
        case version
        /// Print the completion script for a shell (`--generate-completion-script SHELL`).
        case completion(CompletionScript.Shell)
        /// Write the man pages into a directory (`--generate-manual DIR`).
        case manual(directory: String)
    }

    /// Resolves the subcommand chain and parses its options and arguments.
    /// - Parameter words: the arguments after the executable name.
    /// - Throws: ``CLIError`` with exit code 64 and a message naming the problem.
    public static func parse(_ words: [String], root: CommandSpec) throws(CLIError) -> (Outcome, [CommandSpec]) {
        var chain = [root]
        var i = 0
        // Walk subcommands: a word naming a subcommand of the current command descends.
        while i < words.count, !chain.last!.subcommands.isEmpty {
            let w = words[i]
            if w == "help" {
                var target = chain
                for name in words[(i + 1)...] {
                    guard let sub = target.last!.subcommands.first(where: { $0.name == name }) else {
                        throw unknownSubcommand(name, of: target.last!, chain: target)
                    }
                    target.append(sub)
                }
                return (.help(target), target)
            }
            if w.hasPrefix("-") { break }
            guard let sub = chain.last!.subcommands.first(where: { $0.name == w }) else {
                if chain.last!.run == nil { throw unknownSubcommand(w, of: chain.last!, chain: chain) }
                break
            }
            chain.append(sub)
            i += 1
        }
        let command = chain.last!
        let rest = Array(words[i...])
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            return (.help(chain), chain)
        }
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-V" || $0 == "--version" }) { return (.version, chain) }
        if chain.count == 1, let first = rest.first, first.hasPrefix("--generate-") { return (try generator(rest), chain) }
        guard command.run != nil else {
            if rest.isEmpty { return (.help(chain), chain) }
            if rest[0].hasPrefix("-") { throw unknownOption(rest[0], command: command, extra: ["--version"] + (chain.count == 1 ? generators : [])) }
            throw unknownSubcommand(rest[0], of: command, chain: chain)
        }
        let parsed = try parseArguments(rest, for: command, path: chain.map(\.name))
        return (.run(command, parsed), chain)
    }

    /// The root's generator options (not listed in help, as swift-argument-parser's).
    static let generators = ["--generate-completion-script", "--generate-manual"]

    /// `--generate-completion-script SHELL` or `--generate-manual DIR` (`--name=value` too).
    private static func generator(_ rest: [String]) throws(CLIError) -> Outcome {
        var words = rest
        if let eq = words[0].firstIndex(of: "=") {
            words = [String(words[0][..<eq]), String(words[0][words[0].index(after: eq)...])] + words.dropFirst()
        }
        guard generators.contains(words[0]) else {
            throw unknownOption(words[0], command: CommandSpec(name: "", abstract: ""), extra: ["--version"] + generators)
        }
        guard words.count == 2 else {
            throw .usage(words.count < 2 ? "Missing value for '\(words[0])'." : "Unexpected argument '\(DiagnosticText.escaped(words[2].utf8))'.")
        }
        if words[0] == "--generate-manual" { return .manual(directory: words[1]) }
        guard let shell = CompletionScript.Shell(rawValue: words[1]) else {
            throw .usage("The value '\(DiagnosticText.escaped(words[1].utf8))' is invalid for '--generate-completion-script': bash, zsh or fish.")
        }
        return .completion(shell)
    }

    /// The longest chain of subcommands named by the leading words (never throws); used to print
    /// the right usage line after an error.
    public static func resolveChain(_ words: [String], root: CommandSpec) -> [CommandSpec] {
        var chain = [root]
        for w in words {
            guard let sub = chain.last!.subcommands.first(where: { $0.name == w }) else { break }
            chain.append(sub)
        }
        return chain
    }

    static func parseArguments(_ words: [String], for command: CommandSpec, path: [String]) throws(CLIError) -> ParsedArguments {
        var result = ParsedArguments(commandPath: path, values: [:], flags: [], positionals: [:])
        var loose: [String] = []
        var i = 0
        var optionsEnded = false
        while i < words.count {
            let w = words[i]
            i += 1
            if optionsEnded || w == "-" || !w.hasPrefix("-") || isNegativeNumber(w) {
                loose.append(w)
                continue
            }
            if w == "--" { optionsEnded = true; continue }
            var name: String
            var inlineValue: String?
            var spec: OptionSpec?
            if w.hasPrefix("--") {
                let body = w.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inlineValue = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
                spec = command.options.first { $0.name == name }
            } else {
                let body = w.dropFirst()
                guard body.count == 1, let c = body.first else {
                    throw unknownOption(w, command: command)
                }
                name = String(c)
                spec = command.options.first { $0.short == c }
            }
            guard let option = spec else { throw unknownOption(w, command: command) }
            if option.takesValue {
                let value: String
                if let v = inlineValue {
                    value = v
                } else {
                    guard i < words.count, !(words[i].hasPrefix("--") && words[i].count > 2) else {
                        throw .usage("Missing value for '\(DiagnosticText.escaped(w.utf8)) <\(option.valueName!.lowercased())>'.")
                    }
                    value = words[i]
                    i += 1
                }
                if !option.isRepeated, result.values[option.name] != nil {
                    throw .usage("The option '--\(option.name)' was given more than once.")
                }
                result.values[option.name, default: []].append(value)
            } else {
                if inlineValue != nil { throw .usage("The flag '--\(option.name)' does not take a value.") }
                result.flags.insert(option.name)
            }
        }
        // Assign positionals. A repeated one takes all but what the required ones after it need
        // (`IN... OUT`, as cp(1) takes them).
        var k = 0
        for (index, arg) in command.arguments.enumerated() {
            if arg.isRepeated {
                let after = command.arguments[(index + 1)...].filter { !$0.isOptional }.count
                let end = min(loose.count, max(k + (arg.isOptional ? 0 : 1), loose.count - after))
                result.positionals[arg.name] = Array(loose[k..<end])
                if end == k && !arg.isOptional {
                    throw .usage("Missing expected argument '\(arg.name)...'.")
                }
                k = end
            } else if k < loose.count {
                result.positionals[arg.name] = [loose[k]]
                k += 1
            } else if !arg.isOptional {
                throw .usage("Missing expected argument '\(arg.name)'.")
            }
        }
        if k < loose.count {
            throw .usage("Unexpected argument '\(DiagnosticText.escaped(loose[k].utf8))'.")
        }
        return result
    }

    private static func isNegativeNumber(_ w: String) -> Bool {
        w.count > 1 && w.hasPrefix("-") && Double(w) != nil
    }

    private static func unknownOption(_ word: String, command: CommandSpec, extra: [String] = []) -> CLIError {
        let candidates = command.options.map { "--" + $0.name } + ["--help"] + extra
        let bare = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        var msg = "Unknown option '\(DiagnosticText.escaped(bare.utf8))'."
        if let near = Suggestion.nearest(to: bare, in: candidates) { msg += " Did you mean '\(near)'?" }
        return .usage(msg)
    }

    private static func unknownSubcommand(_ word: String, of command: CommandSpec, chain: [CommandSpec]) -> CLIError {
        let names = command.subcommands.map(\.name)
        var msg = "Unknown subcommand '\(DiagnosticText.escaped(word.utf8))' for '\(chain.map(\.name).joined(separator: " "))'."
        if let near = Suggestion.nearest(to: word, in: names) { msg += " Did you mean '\(near)'?" }
        return .usage(msg)
    }
}

/// Edit-distance suggestions for misspelled words.
enum Suggestion {
    /// The candidate closest to `word` by Levenshtein distance, if close enough to be a typo.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = distance(word, c)
            if d <= max(2, c.count / 3), best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance.
    /// - Complexity: O(m·n).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}
