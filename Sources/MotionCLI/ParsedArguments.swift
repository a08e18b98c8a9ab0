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

    /// `--name` as an integer within `range`, or nil when absent.
    public func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(CLIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected an integer\(Self.describe(range)).")
        }
        return v
    }

    /// `--name` as a finite number within `range`, or nil when absent.
    public func double(_ name: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws(CLIError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected a number\(Self.describe(range)).")
        }
        return v
    }

    /// `--name` as a comma-separated list of finite numbers within `range` (`--rates 25,50,100`), or nil.
    public func doubleList(_ name: String, in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws(CLIError) -> [Double]? {
        guard let text = string(name) else { return nil }
        var out: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let p = part.trimmingCharacters(in: " ")
            guard let v = Double(p), v.isFinite, range.contains(v) else {
                throw .usage("The value '\(p)' in '--\(name) \(text)' is invalid: expected comma-separated numbers\(Self.describe(range)).")
            }
            out.append(v)
        }
        return out
    }

    private static func describe(_ r: ClosedRange<Int>) -> String {
        if r.lowerBound == Int.min && r.upperBound == Int.max { return "" }
        if r.upperBound == Int.max { return " >= \(r.lowerBound)" }
        return " in \(r.lowerBound)...\(r.upperBound)"
    }

    private static func describe(_ r: ClosedRange<Double>) -> String {
        let big = Double.greatestFiniteMagnitude
        if r.lowerBound == -big && r.upperBound == big { return "" }
        if r.upperBound == big { return " >= \(r.lowerBound.compactText)" }
        return " in \(r.lowerBound.compactText)...\(r.upperBound.compactText)"
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
