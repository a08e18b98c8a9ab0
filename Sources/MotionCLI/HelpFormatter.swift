/// Renders help and usage text in swift-argument-parser's layout:
/// `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:`, `SUBCOMMANDS:`.
public enum HelpFormatter {
    /// The one-line usage of the command at the end of `chain`.
    public static func usage(_ chain: [CommandSpec]) -> String {
        let command = chain.last!
        var parts = [chain.map(\.name).joined(separator: " ")]
        if !command.subcommands.isEmpty && command.run == nil {
            parts.append("<subcommand>")
            return parts.joined(separator: " ")
        }
        for o in command.options {
            let text = o.takesValue ? "--\(o.name) <\(o.valueName!.lowercased())>" : "--\(o.name)"
            parts.append("[\(text)]" + (o.isRepeated ? " ..." : ""))
        }
        for a in command.arguments {
            let text = "<\(a.name.lowercased())>" + (a.isRepeated ? " ..." : "")
            parts.append(a.isOptional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }

    /// Full help for the command at the end of `chain`.
    public static func help(_ chain: [CommandSpec]) -> String {
        let command = chain.last!
        var out = "OVERVIEW: \(command.abstract)\n"
        if !command.discussion.isEmpty { out += "\n" + command.discussion + "\n" }
        out += "\nUSAGE: \(usage(chain))\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for a in command.arguments {
                out += row("<\(a.name.lowercased())>" + (a.isRepeated ? " ..." : ""), a.help)
            }
        }
        out += "\nOPTIONS:\n"
        for o in command.options {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name)"
            if let v = o.valueName { left += " <\(v.lowercased())>" }
            out += row(left, o.help)
        }
        if chain.count == 1 { out += row("--version", "Show the version.") }
        out += row("-h, --help", "Show help information.")
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in command.subcommands { out += row(s.name, s.abstract) }
            let path = ([chain[0].name, "help"] + chain.dropFirst().map(\.name)).joined(separator: " ")
            out += "\n  See '\(path) <subcommand>' for detailed help.\n"
        }
        return out
    }

    private static func row(_ left: String, _ help: String) -> String {
        let width = 24
        let pad = "  " + left
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        var out: String
        if pad.count + 2 <= width {
            out = pad + String(repeating: " ", count: width - pad.count) + (lines.first.map(String.init) ?? "") + "\n"
        } else {
            out = pad + "\n" + String(repeating: " ", count: width) + (lines.first.map(String.init) ?? "") + "\n"
        }
        for l in lines.dropFirst() { out += String(repeating: " ", count: width) + l + "\n" }
        return out
    }
}
