#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionSystem
import WakeCost

/// File access shared by the commands (`wakes`, `calibrate`, `capture`, `emulate`, `replay`), and
/// the board option of `wakes` and `calibrate`. Every file the commands write goes through
/// ``write(_:to:)``: atomically for a regular file, directly for a stream (`-`, a pipe, a terminal).
enum CLIFiles {
    /// Largest JSON input read (board profiles, capture statistics): ``JSONReader/maxBytes``.
    static let maxJSONBytes = JSONReader.maxBytes

    /// Reads a whole small file, at most `limit` bytes.
    /// - Throws: ``CLIError/failure(_:exitCode:)`` naming the file when it is missing, a
    ///   directory, unreadable or larger than `limit`.
    static func read(_ path: String, limit: Int = maxJSONBytes) throws(CLIError) -> [UInt8] {
        do {
            let file = try FileDescriptor.openForReading(path)
            defer { try? file.close() }
            if let st = try? file.status(), (st.st_mode & S_IFMT) == S_IFDIR {
                throw CLIError.failure("\(path): is a directory, expected a JSON file")
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = try chunk.withUnsafeMutableBytes { b throws(SystemError) in try file.read(into: b.baseAddress!, count: b.count) }
                if n == 0 { break }
                bytes.append(contentsOf: chunk[..<n])
                if bytes.count > limit { throw CLIError.failure("\(path): is larger than \(limit) bytes (not a profile or statistics file?)") }
            }
            return bytes
        } catch let error as CLIError {
            throw error
        } catch let error as SystemError {
            throw .failure(error.errno == .noEntry ? "\(path): no such file" : "\(error)")
        } catch {
            throw .failure("\(path): \(error)")
        }
    }

    /// The size of the file at `path` in bytes (for a progress bar's total), 0 when unknown
    /// (`stat(2)`).
    static func size(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// Whether `path` is a directory (`stat(2)`, links followed).
    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `text` to `path` (``OutputFile``: atomically, replacing a regular file; directly to a
    /// stream such as `-`).
    static func write(_ text: String, to path: String) throws(CLIError) {
        do {
            try OutputFile.write(text, to: path)
        } catch {
            throw .failure("\(OutputFile.displayName(path)): cannot be written: \(error)")
        }
    }

    /// A built-in board by name, or a JSON profile file when the value ends in `.json` or names a file.
    static func board(_ value: String) throws(CLIError) -> BoardProfile {
        if let b = BoardProfile.builtIn(named: value) { return b }
        guard value.hasSuffix(".json") || access(value, F_OK) == 0 else {
            let names = BoardProfile.builtIn.map(\.name)
            let near = Suggestion.nearest(to: value.lowercased(), in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw .usage("Unknown board '\(DiagnosticText.escaped(value.utf8))'.\(near) Built-in boards: \(names.joined(separator: ", ")); or pass a profile FILE.json.")
        }
        let bytes = try read(value)
        do {
            return try BoardProfile.parseJSON(bytes, file: value)
        } catch {
            throw .failure(error.description)
        }
    }

    /// Capture statistics from a JSON file.
    static func capture(_ path: String) throws(CLIError) -> CaptureStats {
        let bytes = try read(path)
        do {
            return try CaptureStats.parseJSON(bytes, file: path)
        } catch {
            throw .failure(error.description)
        }
    }
}

extension CLIFiles {
    /// A chip for `--chips`: a built-in name (case-insensitive) or a chip profile `FILE.json`.
    static func chip(_ value: String) throws(CLIError) -> FIFOChip {
        if let c = FIFOChip.builtIn(named: value) { return c }
        guard value.hasSuffix(".json") || access(value, F_OK) == 0 else {
            let names = FIFOChip.builtIn.map(\.name)
            let near = Suggestion.nearest(to: value.lowercased(), in: names.map { $0.lowercased() })
                .flatMap { n in names.first { $0.lowercased() == n } }.map { " Did you mean '\($0)'?" } ?? ""
            throw .usage("Unknown chip '\(DiagnosticText.escaped(value.utf8))' in '--chips'.\(near) Known: \(names.joined(separator: ", ")); or a chip profile FILE.json.")
        }
        let bytes = try read(value)
        do {
            return try FIFOChip.parseJSON(bytes, file: value)
        } catch {
            throw .failure(error.description)
        }
    }
}
