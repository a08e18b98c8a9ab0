/// A 1-based line and column (counted in bytes) in a text file, for messages.
public struct TextPosition: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in bytes.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// A JSON value read by ``JSONReader``, with the position where it starts, so that a message
/// about a value can point at it (`profile.json:3:19: key 'battery_mah': ...`).
public struct JSONNode: Sendable {
    /// The kinds of JSON value.
    public indirect enum Value: Sendable {
        case null
        case bool(Bool)
        /// A finite number (JSON grammar; converted exactly as the recordings' numbers are).
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in file order; keys are unique (the reader refuses duplicates).
        case object([(key: String, value: JSONNode)])
    }

    /// The value.
    public var value: Value
    /// Where it starts.
    public var position: TextPosition

    /// Creates a node.
    public init(_ value: Value, at position: TextPosition) {
        self.value = value
        self.position = position
    }

    /// The member `key` of an object, or nil (also for non-objects).
    public subscript(key: String) -> JSONNode? {
        if case .object(let members) = value { return members.first { $0.key == key }?.value }
        return nil
    }

    /// The keys of an object in file order (empty for other values).
    public var keys: [String] {
        if case .object(let members) = value { return members.map(\.key) }
        return []
    }

    /// What kind of value this is, for messages: `a string`, `a number`, `an object`, ...
    public var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
