import Foundation
import WakeCost

/// File access shared by the commands (`wakes`, `calibrate`, `capture`, `replay`), and the board option of `wakes` and `calibrate`.
enum CLIFiles {
    /// Reads a whole file (wraps Foundation's `FileManager.contents(atPath:)`).
    /// - Throws: ``CLIError/failure(_:exitCode:)`` naming the file when it is missing or unreadable.
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw .failure("\(path): no such file") }
        guard !isDir.boolValue else { throw .failure("\(path): is a directory, expected a JSON file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw .failure("\(path): cannot be read (permission?)") }
        return [UInt8](data)
    }

    /// The size of the file at `path` in bytes (for a progress bar's total), 0 when unknown.
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Writes `text` to `path`, replacing it.
    static func write(_ text: String, to path: String) throws(CLIError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .failure("\(path): cannot be written: \(error.localizedDescription)")
        }
    }

    /// A built-in board by name, or a JSON profile file when the value ends in `.json` or names a file.
    static func board(_ value: String) throws(CLIError) -> BoardProfile {
        if let b = BoardProfile.builtIn(named: value) { return b }
        guard value.hasSuffix(".json") || FileManager.default.fileExists(atPath: value) else {
            throw .usage("Unknown board '\(value)'. Built-in boards: \(BoardProfile.builtIn.map(\.name).joined(separator: ", ")); or pass a profile FILE.json.")
        }
        do {
            return try BoardProfile.parseJSON(try read(value), file: value)
        } catch let e as WakeCostError {
            throw .failure(e.description)
        } catch let e as CLIError {
            throw e
        } catch {
            throw .failure("\(value): \(error)")
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
        guard value.hasSuffix(".json") || FileManager.default.fileExists(atPath: value) else {
            throw .usage("Unknown chip '\(value)' in '--chips'. Known: \(FIFOChip.builtIn.map(\.name).joined(separator: ", ")); or a chip profile FILE.json.")
        }
        let bytes = try read(value)
        do {
            return try FIFOChip.parseJSON(bytes, file: value)
        } catch {
            throw .failure(error.description)
        }
    }
}
