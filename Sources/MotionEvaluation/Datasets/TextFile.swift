import MotionCore
import MotionSystem

/// A small text file of a datasets folder (a manifest, a truth list) read whole, and split into
/// lines for the parsers of this target.
enum TextFile {
    /// The largest file read whole (the datasets' manifests and truth lists are a few KiB).
    static let limit = 64 << 20

    /// The lines of the UTF-8 file at `path` (`\n` or `\r\n` ends a line; a last line without a
    /// newline counts).
    /// - Throws: `SystemError` when the file cannot be opened or read; ``MotionCore/RecordingError``
    ///   when it is larger than ``limit`` or a line is not valid UTF-8 (naming the line).
    static func lines(_ path: String) throws -> [String] {
        let fd = try FileDescriptor.openForReading(path)
        defer { try? fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { buf throws(SystemError) in try fd.read(into: buf.baseAddress!, count: buf.count) }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw RecordingError(file: path, line: nil, problem: "larger than \(limit >> 20) MiB: not a datasets text file") }
        }
        var out: [String] = []
        for (i, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = raw.last == 0x0D ? raw.dropLast() : raw[...]
            guard let text = String(validating: line, as: UTF8.self) else {
                throw RecordingError(file: path, line: i + 1, problem: "not valid UTF-8")
            }
            out.append(text)
        }
        if out.last == "" { out.removeLast() }
        return out
    }
}
