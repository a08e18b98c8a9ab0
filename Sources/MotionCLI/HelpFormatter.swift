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

    /// The usage line after `prefix` (`Usage: `, `USAGE: `), wrapped to `width` columns with its
    /// continuation lines indented under the command (a bracketed option stays whole).
    public static func wrappedUsage(_ chain: [CommandSpec], prefix: String = "Usage: ", width: Int = defaultWidth) -> String {
        fitted(prefix + usage(chain), width: width, usagePrefix: prefix)
    }

    /// Full help for the command at the end of `chain`, wrapped to `width` columns (the terminal's,
    /// ``CommandIO/columns``).
    public static func help(_ chain: [CommandSpec], width: Int = defaultWidth) -> String {
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
        out += row("-V, --version", "Show the version.")
        out += row("-h, --help", "Show help information.")
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in command.subcommands { out += row(s.name, s.abstract) }
            let path = ([chain[0].name, "help"] + chain.dropFirst().map(\.name)).joined(separator: " ")
            out += "\n  See '\(path) <subcommand>' for detailed help.\n"
        }
        return fitted(out, width: width)
    }

    /// The help width when the terminal's is unknown (not a terminal, no `COLUMNS`).
    public static let defaultWidth = 100

    /// The narrowest width help is wrapped to (the option column is 24 wide).
    public static let minimumWidth = 40

    /// `text` with every line longer than `width` wrapped at spaces: continuation lines are
    /// indented like the line's text (an option's help column, `USAGE:`'s arguments, the line's
    /// own leading spaces). A single word longer than the width stays whole.
    static func fitted(_ text: String, width requested: Int = defaultWidth, usagePrefix: String = "USAGE: ") -> String {
        let width = max(requested, minimumWidth)
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.count > width else { out.append(String(line)); continue }
            let leading = line.prefix { $0 == " " }.count
            let indent: Int
            let isUsage = line.hasPrefix(usagePrefix)
            if isUsage {
                indent = usagePrefix.count
            } else if leading == 2, line.dropFirst(2).first == "-" || line.dropFirst(2).first == "<", line.count > 24,
                      line[line.index(line.startIndex, offsetBy: 22)..<line.index(line.startIndex, offsetBy: 24)] == "  " {
                indent = 24
            } else {
                indent = leading
            }
            var current = String(line.prefix(leading))
            let pad = String(repeating: " ", count: indent)
            for word in words(line.dropFirst(leading), keepingBrackets: isUsage) {
                let fresh = current.allSatisfy { $0 == " " }
                if !fresh && current.count + 1 + word.count > width {
                    out.append(current)
                    current = pad + word
                } else {
                    current += (fresh ? "" : " ") + word
                }
            }
            out.append(current)
        }
        return out.joined(separator: "\n")
    }

    /// `text` split at spaces; with `keepingBrackets`, a bracketed group (`[--chips <a,...>]`)
    /// stays one word.
    private static func words(_ text: Substring, keepingBrackets: Bool) -> [String] {
        var out: [String] = []
        var depth = 0
        for token in text.split(separator: " ", omittingEmptySubsequences: false) {
            if keepingBrackets && depth > 0, let last = out.popLast() { out.append(last + " " + token) } else { out.append(String(token)) }
            depth += token.filter { $0 == "[" }.count - token.filter { $0 == "]" }.count
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
