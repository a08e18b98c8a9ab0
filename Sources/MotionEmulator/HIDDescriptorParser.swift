/// Parses a HID report descriptor back into the report fields it declares, the way hid-core
/// does for the subset used by the emulator (short items, one usage page, nested collections).
/// Used by the tests to check that report encoders and the descriptor agree, and by
/// `emulate --print-descriptor`.
public enum HIDDescriptorParser {
    /// Report types.
    public enum ReportType: String, Sendable, Codable { case input, output, feature }

    /// One main item (Input/Output/Feature) with the global and local state at that point.
    public struct Field: Equatable, Sendable {
        /// Input, output or feature.
        public var type: ReportType
        /// Report ID (0 when the descriptor uses none).
        public var reportID: UInt8
        /// Usages (32-bit extended: page << 16 | id), in order.
        public var usages: [UInt32]
        /// Bits per value.
        public var size: Int
        /// Number of values.
        public var count: Int
        /// Logical minimum / maximum.
        public var logicalMinimum: Int32, logicalMaximum: Int32
        /// Unit exponent (decoded from the nibble).
        public var unitExponent: Int
        /// Whether the field is a variable (vs. an array of selectors).
        public var isVariable: Bool
        /// Usage of the innermost application, physical and logical collection (0 if none).
        public var application: UInt32, physical: UInt32, logical: UInt32
        /// Bit offset of the field in its report, after the report ID byte.
        public var bitOffset: Int
    }

    /// A descriptor that does not parse.
    public struct ParseError: Error, CustomStringConvertible, Equatable, Sendable {
        /// Byte offset of the offending item.
        public var offset: Int
        /// What is wrong.
        public var problem: String
        public var description: String { "report descriptor byte \(offset): \(problem)" }
    }

    /// Parses `bytes` into fields, in descriptor order.
    /// - Complexity: O(n) in the descriptor length.
    public static func fields(_ bytes: [UInt8]) throws(ParseError) -> [Field] {
        var fields: [Field] = []
        var page: UInt32 = 0, logMin: Int32 = 0, logMax: Int32 = 0, size = 0, count = 0, reportID: UInt8 = 0, unitExp = 0
        var usages: [UInt32] = []
        var stack: [(kind: UInt8, usage: UInt32)] = []
        var offsets: [String: Int] = [:]  // "type/id" -> next bit offset
        var i = 0
        while i < bytes.count {
            let start = i
            let prefix = bytes[i]
            if prefix == 0xFE { throw ParseError(offset: i, problem: "long items are not supported") }
            let sizeCode = Int(prefix & 3)
            let n = sizeCode == 3 ? 4 : sizeCode
            guard i + 1 + n <= bytes.count else {
                throw ParseError(offset: i, problem: "item runs past the end")
            }
            var raw: UInt32 = 0
            for k in 0..<n { raw |= UInt32(bytes[i + 1 + k]) << (8 * UInt32(k)) }
            let signed: Int32 = n == 1 ? Int32(Int8(truncatingIfNeeded: raw)) : n == 2 ? Int32(Int16(truncatingIfNeeded: raw)) : Int32(bitPattern: raw)
            i += 1 + n
            let type = (prefix >> 2) & 3, tag = prefix >> 4
            switch (type, tag) {
            case (0, 0x8), (0, 0x9), (0, 0xB):
                let rt: ReportType = tag == 0x8 ? .input : tag == 0x9 ? .output : .feature
                let key = "\(rt)/\(reportID)"
                let offset = offsets[key, default: 0]
                let app = stack.last(where: { $0.kind == 1 })?.usage ?? 0
                let logical = stack.last(where: { $0.kind == 2 })?.usage ?? 0
                let physical = stack.last(where: { $0.kind == 0 })?.usage ?? 0
                fields.append(Field(type: rt, reportID: reportID, usages: usages, size: size, count: count,
                                    logicalMinimum: logMin, logicalMaximum: logMax, unitExponent: unitExp,
                                    isVariable: raw & 2 != 0, application: app, physical: physical, logical: logical, bitOffset: offset))
                offsets[key] = offset + size * count
                usages = []
            case (0, 0xA):
                stack.append((UInt8(truncatingIfNeeded: raw), usages.first ?? 0))
                usages = []
            case (0, 0xC):
                guard !stack.isEmpty else { throw ParseError(offset: start, problem: "End Collection without Collection") }
                stack.removeLast()
                usages = []
            case (1, 0x0): page = raw
            case (1, 0x1): logMin = signed
            case (1, 0x2): logMax = logMin < 0 ? signed : Int32(bitPattern: raw)
            case (1, 0x5): unitExp = raw & 0xFFFF_FFF0 == 0 ? Int(Int8(bitPattern: UInt8(raw << 4)) >> 4) : Int(signed)
            case (1, 0x6): break
            case (1, 0x7): size = Int(raw)
            case (1, 0x8):
                guard raw != 0 else { throw ParseError(offset: start, problem: "Report ID 0 is reserved") }
                reportID = UInt8(truncatingIfNeeded: raw)
            case (1, 0x9): count = Int(raw)
            case (2, 0x0): usages.append(n == 4 ? raw : page << 16 | raw)
            default:
                throw ParseError(offset: start, problem: "unsupported item 0x\(String(prefix, radix: 16))")
            }
        }
        guard stack.isEmpty else { throw ParseError(offset: bytes.count, problem: "\(stack.count) collection(s) not closed") }
        return fields
    }
}
