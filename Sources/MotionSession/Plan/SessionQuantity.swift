/// The durations and sizes a session's options take (`--rotate 1h`, `--rotate 100M`,
/// `--max-disk 2G`): parsed strictly, with units spelled so that minutes and mebibytes cannot be
/// confused.
public enum SessionQuantity: Hashable, Sendable {
    /// A duration, ns.
    case duration(nanoseconds: Int64)
    /// A size, bytes.
    case size(bytes: Int64)

    /// Parses a duration (`90`, `90s`, `15min`, `1h`, `1d`; a plain number is seconds) or a size
    /// (`500K`, `100M`, `2G`, `1T`, optionally with `B` or `iB`: powers of 1024, case-insensitive).
    /// - Returns: the quantity, or the problem (e.g. `10m` is refused as ambiguous).
    public static func parse(_ text: String) -> Result<SessionQuantity, QuantityError> {
        let t = text.trimmingCharacters(inSetOf: " ")
        let number = String(t.prefix { $0.isASCII && ($0.isNumber || $0 == ".") })
        let unitText = String(t.dropFirst(number.count))
        let unit = unitText.lowercased()
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != ".", let value = Double(number), value.isFinite, value > 0 else {
            return .failure(QuantityError(text: text, problem: "expected a positive number with an optional unit (s, min, h, d; K, M, G, T)"))
        }
        if unitText == "m" {
            return .failure(QuantityError(text: text, problem: "'m' is ambiguous: write 'min' for minutes or 'M' for mebibytes"))
        }
        let seconds: [String: Double] = ["": 1, "s": 1, "sec": 1, "min": 60, "h": 3600, "d": 86_400]
        let k = 1024.0, m = k * k, g = m * k, tera = g * k
        let bytes: [String: Double] = ["b": 1, "k": k, "kb": k, "kib": k, "m": m, "mb": m, "mib": m,
                                       "g": g, "gb": g, "gib": g, "t": tera, "tb": tera, "tib": tera]
        if let f = seconds[unit] {
            let ns = value * f * 1e9
            guard ns >= 1e6, ns < 9e18 else { return .failure(QuantityError(text: text, problem: "the duration must be between 1 ms and 280 years")) }
            return .success(.duration(nanoseconds: Int64(ns.rounded())))
        }
        if let f = bytes[unit] {
            let b = value * f
            guard b >= 1, b < 9e18 else { return .failure(QuantityError(text: text, problem: "the size must be between 1 byte and 8 EiB")) }
            return .success(.size(bytes: Int64(b.rounded())))
        }
        return .failure(QuantityError(text: text, problem: "unknown unit \(DiagnosticEscape.text(unitText)) (durations: s, min, h, d; sizes: K, M, G, T)"))
    }

    /// Why a quantity could not be parsed.
    public struct QuantityError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text given.
        public var text: String
        /// What is wrong.
        public var problem: String
        /// `'TEXT': problem`.
        public var description: String { "\(DiagnosticEscape.text(text)): \(problem)" }
    }
}

extension String {
    /// The string without leading and trailing `character`s.
    func trimmingCharacters(inSetOf character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s.removeFirst() }
        while s.last == character { s.removeLast() }
        return String(s)
    }
}
