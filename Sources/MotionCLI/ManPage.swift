import MotionCore

/// Man pages generated from the same ``CommandSpec``s as `--help`: `motionbatch(1)` and one page
/// per subcommand (`motionbatch-capture(1)`, `motionbatch-eval-steps(1)`, ...), in roff that `man`
/// fills to the reader's width (no pre-wrapped text). `motionbatch --generate-manual DIR` writes
/// them; the Debian package and `scripts/install.sh` install them.
enum ManPage {
    /// Every command path of `root` with its page name, the root first, in help order.
    static func pages(_ root: CommandSpec) -> [(name: String, chain: [CommandSpec])] {
        var out: [(String, [CommandSpec])] = []
        func walk(_ chain: [CommandSpec]) {
            out.append((chain.map(\.name).joined(separator: "-"), chain))
            for s in chain.last!.subcommands { walk(chain + [s]) }
        }
        walk([root])
        return out
    }

    /// The roff source of the page for the command at the end of `chain`.
    static func page(_ chain: [CommandSpec], version: String) -> String {
        let command = chain.last!
        let name = chain.map(\.name).joined(separator: "-")
        let root = chain[0].name
        // Left-adjusted (no justification): long option values and paths never stretch a line.
        var out = ".TH \(name.uppercased()) 1 \"\" \"\(root) \(version)\" \"User Commands\"\n.ad l\n"
        out += ".SH NAME\n\(escaped(name)) \\- \(escaped(command.abstract))\n"
        out += ".SH SYNOPSIS\n"
        out += ".B \(escaped(chain.map(\.name).joined(separator: " ")))\n"
        for part in synopsis(command) { out += part + "\n" }
        out += ".SH DESCRIPTION\n"
        out += text(command.discussion.isEmpty ? command.abstract : command.abstract + "\n\n" + command.discussion)
        if !command.arguments.isEmpty {
            out += ".SH ARGUMENTS\n"
            for a in command.arguments {
                out += ".TP\n\\fI\(escaped(a.name.lowercased()))\\fR\(a.isRepeated ? " ..." : "")\(a.isOptional ? " (optional)" : "")\n"
                out += text(a.help)
            }
        }
        out += ".SH OPTIONS\n"
        for o in command.options {
            var head = o.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
            head += "\\fB\\-\\-\(escaped(o.name))\\fR"
            if let v = o.valueName { head += " \\fI\(escaped(v.lowercased()))\\fR" }
            if o.isRepeated { head += " ..." }
            out += ".TP\n\(head)\n" + text(o.help)
        }
        out += ".TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nShow the version.\n"
        out += ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow help information.\n"
        if !command.subcommands.isEmpty {
            out += ".SH SUBCOMMANDS\n"
            for s in command.subcommands {
                out += ".TP\n\\fB\(escaped(s.name))\\fR\n" + text(s.abstract + " See " + "\(name)-\(s.name)(1).")
            }
        }
        out += ".SH EXIT STATUS\n0 on success, 1 on a failure, 64 on a usage error (the message and the usage line on standard error).\n"
        out += ".SH FILES\n.TP\n.I /usr/share/doc/motionbatch/docs\nThe documentation the help refers to (docs/*.md; /usr/local/share/doc/motionbatch/docs after scripts/install.sh).\n"
        out += ".SH SEE ALSO\n"
        var see = pages(chain[0]).map(\.name).filter { $0 != name && ($0 == root || $0.hasPrefix(name + "-") || chain.count > 1 && $0 == chain.dropLast().map(\.name).joined(separator: "-")) }
        if chain.count == 1 { see = pages(chain[0]).map(\.name).filter { $0 != name && $0.split(separator: "-").count == 2 } }
        out += see.map { ".BR \($0) (1)" }.joined(separator: ",\n") + "\n"
        return out
    }

    /// Writes every page of `root` as `DIR/NAME.1` (atomically) and lists the paths on stdout.
    static func writeAll(_ root: CommandSpec, into directory: String, version: String, io: CommandIO) throws(CLIError) {
        guard CLIFiles.isDirectory(directory) else {
            throw .usage("'--generate-manual': '\(DiagnosticText.escaped(directory.utf8))' is not a directory.")
        }
        for (name, chain) in pages(root) {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + name + ".1"
            try CLIFiles.write(page(chain, version: version), to: path)
            io.out(path)
        }
    }

    /// The synopsis: options in brackets, then the arguments, each a roff line.
    private static func synopsis(_ command: CommandSpec) -> [String] {
        if !command.subcommands.isEmpty && command.run == nil { return ["\\fIsubcommand\\fR"] }
        var parts: [String] = []
        for o in command.options {
            let value = o.valueName.map { " \\fI\(escaped($0.lowercased()))\\fR" } ?? ""
            parts.append("[\\fB\\-\\-\(escaped(o.name))\\fR\(value)]" + (o.isRepeated ? " ..." : ""))
        }
        for a in command.arguments {
            let t = "\\fI\(escaped(a.name.lowercased()))\\fR" + (a.isRepeated ? " ..." : "")
            parts.append(a.isOptional ? "[\(t)]" : t)
        }
        // A bracketed group is never split across lines (unbreakable spaces).
        return parts.map { $0.split(separator: " ").joined(separator: "\\ ") }
    }

    /// Help text as roff: a blank line starts a paragraph, an indented line keeps its own line
    /// (roff breaks before a line that starts with a space), other lines are filled.
    private static func text(_ s: String) -> String {
        var out = ""
        for line in s.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) { out += ".PP\n"; continue }
            out += escaped(String(line)) + "\n"
        }
        return out
    }

    /// `s` safe as roff text: backslashes and dashes escaped, a leading `.` or `'` neutralised.
    static func escaped(_ s: String) -> String {
        var t = ""
        for c in s {
            switch c {
            case "\\": t += "\\e"
            case "-": t += "\\-"
            default: t.append(c)
            }
        }
        if t.hasPrefix(".") || t.hasPrefix("'") { t = "\\&" + t }
        return t
    }
}
