import MotionCore

/// A decoded top-level JSON object (``JSONReader``) with typed accessors whose errors name the
/// file, the key and the line and column of the value.
struct JSONObject {
    /// The file name, for errors.
    let file: String
    /// The object.
    let node: JSONNode

    /// The keys in file order.
    var keys: [String] { node.keys }
    /// The member `key`, if present.
    subscript(key: String) -> JSONNode? { node[key] }

    /// Decodes `data`, which must hold one JSON object.
    static func parse(_ data: [UInt8], file: String) throws(WakeCostError) -> JSONObject {
        let node: JSONNode
        do { node = try JSONReader.parse(data) } catch {
            throw WakeCostError(file: file, problem: "not valid JSON: \(error.problem)", position: error.position)
        }
        guard case .object = node.value else {
            throw WakeCostError(file: file, problem: "expected a JSON object at the top level, found \(node.kindName)", position: node.position)
        }
        return JSONObject(file: file, node: node)
    }

    /// An error about `key`, at its value's position (or the object's when it is missing).
    func error(_ key: String, _ problem: String) -> WakeCostError {
        WakeCostError(file: file, key: key, problem: problem, position: node[key]?.position ?? node.position)
    }

    /// A required number within `rule`.
    func number(_ key: String, rule: ValueRule? = nil) throws(WakeCostError) -> Double {
        guard let v = node[key] else { throw error(key, "missing (required number)") }
        guard case .number(let d) = v.value else { throw error(key, "must be a number, got \(v.kindName)") }
        if let rule, !rule.contains(d) { throw error(key, rule.problem(d.compactText)) }
        return d
    }

    /// An optional number within `rule` (absent or null: nil).
    func optionalNumber(_ key: String, rule: ValueRule? = nil) throws(WakeCostError) -> Double? {
        guard let v = node[key] else { return nil }
        if case .null = v.value { return nil }
        return try number(key, rule: rule)
    }

    /// A required whole number within `rule`.
    func count(_ key: String, rule: ValueRule = InputLimits.count) throws(WakeCostError) -> Int {
        let d = try number(key)
        guard d == d.rounded() else { throw error(key, "must be a whole number, got \(d.compactText)") }
        guard rule.contains(d) else { throw error(key, rule.problem(d.compactText)) }
        return Int(d)
    }

    /// An optional whole number within `rule`; nil when absent or null.
    func optionalCount(_ key: String, rule: ValueRule = InputLimits.count) throws(WakeCostError) -> Int? {
        guard let v = node[key] else { return nil }
        if case .null = v.value { return nil }
        return try count(key, rule: rule)
    }

    /// An optional boolean (not a number).
    func bool(_ key: String) throws(WakeCostError) -> Bool? {
        guard let v = node[key] else { return nil }
        guard case .bool(let b) = v.value else { throw error(key, "must be true or false, got \(v.kindName)") }
        return b
    }

    /// Throws for the first key (in file order) not in `allowed`.
    func rejectUnknownKeys(_ allowed: Set<String>) throws(WakeCostError) {
        for key in keys where !allowed.contains(key) {
            throw error(key, "unknown key (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// An optional printable string.
    func string(_ key: String) throws(WakeCostError) -> String? {
        guard let v = node[key] else { return nil }
        guard case .string(let s) = v.value else { throw error(key, "must be a string, got \(v.kindName)") }
        guard DiagnosticText.isPrintable(s.utf8) else { throw error(key, "\(DiagnosticText.quoted(s)) contains control characters") }
        return s
    }
}
