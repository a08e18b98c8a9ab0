/// The accepted range of one kind of value that comes from outside the program (a recording's
/// rows or header, a command-line option, a board profile), with its unit, and the message that
/// names the limit when a value breaks it. Each kind has one rule (``InputLimits``), used by every
/// place where such a value enters, so that what one entry point accepts, the others accept too.
public struct ValueRule: Sendable, Equatable, CustomStringConvertible {
    /// What the value is, for messages (`sampling rate`, `duration`, `battery capacity`).
    public var quantity: String
    /// The unit the bounds are in (`Hz`, `s`, `mAh`; empty for counts and ratios).
    public var unit: String
    /// The smallest accepted value (or the bound it must exceed, with ``excludesLowerBound``).
    public var lowerBound: Double
    /// The largest accepted value.
    public var upperBound: Double
    /// Whether the value must be strictly greater than ``lowerBound``.
    public var excludesLowerBound: Bool

    /// Creates a rule for finite values in `range` (`excludingLower`: strictly above its lower bound).
    public init(_ quantity: String, unit: String, _ range: ClosedRange<Double>, excludingLower: Bool = false) {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "ValueRule bounds must be finite")
        self.quantity = quantity
        self.unit = unit
        lowerBound = range.lowerBound
        upperBound = range.upperBound
        excludesLowerBound = excludingLower
    }

    /// Whether `value` is finite and within the rule.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && value <= upperBound && (excludesLowerBound ? value > lowerBound : value >= lowerBound)
    }

    /// Whether the integer `value` is within the rule.
    public func contains(_ value: Int) -> Bool { contains(Double(value)) }

    /// The same kind of value with a narrower range (for a use with a documented stricter limit).
    public func narrowed(to range: ClosedRange<Double>, excludingLower: Bool? = nil) -> ValueRule {
        precondition(range.lowerBound >= lowerBound && range.upperBound <= upperBound, "narrowed range must lie within the rule")
        var r = self
        r.lowerBound = range.lowerBound
        r.upperBound = range.upperBound
        r.excludesLowerBound = excludingLower ?? excludesLowerBound
        return r
    }

    /// The allowed range as text: `0.001...1000000 Hz`, `> 0 and <= 1000000000 s`.
    public var rangeText: String {
        let u = unit.isEmpty ? "" : " \(unit)"
        if excludesLowerBound { return "> \(lowerBound.compactText) and <= \(upperBound.compactText)\(u)" }
        return "\(lowerBound.compactText)...\(upperBound.compactText)\(u)"
    }

    /// `sampling rate must be within 0.001...1000000 Hz`.
    public var description: String { "\(quantity) must be within \(rangeText)" }

    /// The problem with `text` (the value as written): `sampling rate 1e308 is out of range
    /// (allowed 0.001...1000000 Hz)`.
    public func problem(_ text: String) -> String {
        "\(quantity) \(text) is out of range (allowed \(rangeText))"
    }

    /// Whether `value` is within the rule; else a ``ValueRangeError`` quoting `text` (the value as written).
    public func check(_ value: Double, text: String? = nil) throws(ValueRangeError) -> Double {
        guard contains(value) else { throw ValueRangeError(rule: self, text: text ?? value.compactText) }
        return value
    }
}

/// A value outside its ``ValueRule``.
public struct ValueRangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule broken.
    public var rule: ValueRule
    /// The value as written.
    public var text: String

    /// Creates an error.
    public init(rule: ValueRule, text: String) {
        self.rule = rule
        self.text = text
    }

    /// ``ValueRule/problem(_:)``.
    public var description: String { rule.problem(text) }
}
