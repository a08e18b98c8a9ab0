import MotionCore

/// The result of parsing a command line against a ``CommandSpec``: option values, flags and
/// positionals, with typed accessors that throw usage errors (exit 64) for bad values.
public struct ParsedArguments: Sendable {
    /// The command path, e.g. `["motionbatch", "eval", "steps"]`.
    public var commandPath: [String]
    /// Option values by long name; repeated options keep every value in order.
    public var values: [String: [String]]
    /// Flags present, by long name.
    public var flags: Set<String>
    /// Positionals by argument name; a repeated argument holds every remaining word.
    public var positionals: [String: [String]]

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of `--name`, or nil.
    public func string(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeated `--name`.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The positional argument `name` (first value), or nil when omitted.
    public func argument(_ name: String) -> String? { positionals[name]?.first }

    /// All words of a repeated positional argument.
    public func arguments(_ name: String) -> [String] { positionals[name] ?? [] }

    /// `--name` as an integer (`[+-]digits`) within `rule`, or nil when absent.
    /// - Throws: ``CLIError/usage(_:)`` naming the option, the value and the rule's limits.
    public func int(_ name: String, rule: ValueRule) throws(CLIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let v = DecimalScanner.int64(text) else {
            throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--\(name)': expected a whole number (\(rule)).")
        }
        guard rule.contains(Double(v)) else {
            throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--\(name)': \(rule).")
        }
        return Int(v)
    }

    /// `--name` as a decimal number (the recordings' grammar: no hexadecimal, `inf` or `nan`)
    /// within `rule`, or nil when absent.
    /// - Throws: ``CLIError/usage(_:)`` naming the option, the value and the rule's limits.
    public func double(_ name: String, rule: ValueRule) throws(CLIError) -> Double? {
        guard let text = string(name) else { return nil }
        return try Self.number(text, rule: rule, option: name)
    }

    /// `--name` as a comma-separated list of numbers within `rule` (`--rates 25,50,100`), or nil.
    public func doubleList(_ name: String, rule: ValueRule) throws(CLIError) -> [Double]? {
        guard let text = string(name) else { return nil }
        var out: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let p = part.trimmingCharacters(in: " ")
            guard let v = DecimalScanner.double(p), rule.contains(v) else {
                throw .usage("The value '\(DiagnosticText.escaped(p.utf8))' in '--\(name) \(DiagnosticText.escaped(text.utf8))' is invalid: expected comma-separated numbers (\(rule)).")
            }
            out.append(v)
        }
        return out
    }

    /// `text` as a number within `rule`, for the option (or option part) `option`.
    static func number(_ text: String, rule: ValueRule, option: String) throws(CLIError) -> Double {
        guard let v = DecimalScanner.double(text) else {
            throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--\(option)': expected a decimal number (\(rule)).")
        }
        guard rule.contains(v) else {
            throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--\(option)': \(rule).")
        }
        return v
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
