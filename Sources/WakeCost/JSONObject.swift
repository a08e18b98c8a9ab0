import Foundation

/// A decoded top-level JSON object with typed, error-naming accessors (wraps Foundation's
/// `JSONSerialization`).
struct JSONObject {
    let storage: [String: Any]

    var keys: Dictionary<String, Any>.Keys { storage.keys }
    subscript(key: String) -> Any? { storage[key] }

    /// Decodes `data`, which must hold one JSON object.
    static func parse(_ data: [UInt8], file: String) throws(WakeCostError) -> JSONObject {
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: Data(data), options: [])
        } catch {
            throw WakeCostError(file: file, problem: "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error))")
        }
        guard let dict = any as? [String: Any] else {
            throw WakeCostError(file: file, problem: "expected a JSON object at the top level")
        }
        return JSONObject(storage: dict)
    }

    /// A required number (not a boolean, not a string).
    func number(_ key: String, file: String) throws(WakeCostError) -> Double {
        guard let v = storage[key] else { throw WakeCostError(file: file, key: key, problem: "missing (required number)") }
        guard let n = v as? NSNumber, !JSONObject.isBool(n) else {
            throw WakeCostError(file: file, key: key, problem: "must be a number, got \(JSONObject.describe(v))")
        }
        let d = n.doubleValue
        guard d.isFinite else { throw WakeCostError(file: file, key: key, problem: "must be a finite number") }
        return d
    }

    /// An optional number.
    func optionalNumber(_ key: String, file: String) throws(WakeCostError) -> Double? {
        guard storage[key] != nil, !(storage[key] is NSNull) else { return nil }
        return try number(key, file: file)
    }

    /// A required whole number (a count), within ±10^15.
    func count(_ key: String, file: String) throws(WakeCostError) -> Int {
        let d = try number(key, file: file)
        guard d == d.rounded(), abs(d) < 1e15 else { throw WakeCostError(file: file, key: key, problem: "must be a whole number, got \(d)") }
        return Int(d)
    }

    /// An optional whole number; nil when absent or null.
    func optionalCount(_ key: String, file: String) throws(WakeCostError) -> Int? {
        guard storage[key] != nil, !(storage[key] is NSNull) else { return nil }
        return try count(key, file: file)
    }

    /// An optional boolean (not a number).
    func bool(_ key: String, file: String) throws(WakeCostError) -> Bool? {
        guard let v = storage[key] else { return nil }
        guard let n = v as? NSNumber, JSONObject.isBool(n) else {
            throw WakeCostError(file: file, key: key, problem: "must be true or false, got \(JSONObject.describe(v))")
        }
        return n.boolValue
    }

    /// Throws for the first key (in sorted order) not in `allowed`.
    func rejectUnknownKeys(_ allowed: Set<String>, file: String) throws(WakeCostError) {
        for key in keys.sorted() where !allowed.contains(key) {
            throw WakeCostError(file: file, key: key, problem: "unknown key (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// An optional string.
    func string(_ key: String, file: String) throws(WakeCostError) -> String? {
        guard let v = storage[key] else { return nil }
        guard let s = v as? String else { throw WakeCostError(file: file, key: key, problem: "must be a string, got \(JSONObject.describe(v))") }
        return s
    }

    static func isBool(_ n: NSNumber) -> Bool {
        let type = String(cString: n.objCType)
        return type == "c" || type == "B"
    }

    static func describe(_ v: Any) -> String {
        switch v {
        case is String: return "a string"
        case is NSNull: return "null"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case let n as NSNumber where isBool(n): return "a boolean"
        default: return "\(v)"
        }
    }
}
