import MotionCore
import Foundation

/// A collected `<session>.ndjson` file read back (pure: bytes in, lines out): one fleet message
/// per line; a final line without its newline (an interrupted write) is reported as torn, any
/// other line that is not a fleet message is an error naming file, line and column.
public struct FleetNDJSON {
    /// One message.
    public struct Line {
        /// `type`: batch, event or summary.
        public var type: String
        /// `seq`.
        public var sequence: Int
        /// The whole object.
        public var object: [String: Any]
    }

    /// The messages, in file order.
    public var messages: [Line] = []
    /// Bytes of a torn final line.
    public var tornBytes = 0

    /// Parses a file.
    /// - Throws: ``FleetError/malformed(file:line:column:problem:)``.
    /// - Complexity: O(file size).
    public static func parse(_ bytes: [UInt8], file: String) throws(FleetError) -> FleetNDJSON {
        var out = FleetNDJSON()
        var start = 0
        var n = 0
        while start < bytes.count {
            guard let nl = bytes[start...].firstIndex(of: 0x0a) else { out.tornBytes = bytes.count - start; break }
            n += 1
            let line = bytes[start..<nl]
            start = nl + 1
            guard let any = try? JSONSerialization.jsonObject(with: Data(line)), let o = any as? [String: Any] else {
                let column = (line.firstIndex { !(($0 == 0x20) || ($0 == 0x09)) } ?? line.startIndex) - line.startIndex + 1
                throw .malformed(file: file, line: n, column: column, problem: "not a JSON object: \(DiagnosticText.quoted(String(decoding: line.prefix(40), as: UTF8.self)))")
            }
            guard let type = o["type"] as? String, let seq = o["seq"] as? Int else {
                throw .malformed(file: file, line: n, column: 1, problem: "a fleet message needs \"type\" and \"seq\"")
            }
            out.messages.append(Line(type: type, sequence: seq, object: o))
        }
        return out
    }
}
