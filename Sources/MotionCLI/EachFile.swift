import MotionCore

/// How the commands that take several recordings (`replay`, `steps`, `activity`) process them:
/// each file in turn, a file that fails reported on stderr (`Error: FILE:LINE: ...`) without
/// stopping the others, and at the end exit 1 when any failed. A usage error stops at once; with
/// one file its error is the command's.
enum EachFile {
    /// Runs `body` for every file of `files`.
    /// - Throws: ``CLIError/usage(_:)`` when `-` (standard input) is given more than once or
    ///   `body` finds a usage error; ``CLIError/failure(_:exitCode:)`` naming how many files
    ///   failed, after all were tried.
    static func run(_ files: [String], io: CommandIO, _ body: (String) throws -> Void) throws {
        guard files.filter({ $0 == "-" }).count <= 1 else {
            throw CLIError.usage("'-' (standard input) can be read only once.")
        }
        guard files.count > 1 else {
            for f in files { try body(f) }
            return
        }
        var failed: [String] = []
        for file in files {
            do {
                try body(file)
            } catch let error as CLIError where error.exitCode == 64 {
                throw error
            } catch {
                io.err("Error: \(DiagnosticText.sanitized("\(error)"))")
                failed.append(file)
            }
        }
        if !failed.isEmpty {
            throw CLIError.failure("\(failed.count) of \(files.count) files failed: \(failed.map { DiagnosticText.escaped($0.utf8, limit: 80) }.joined(separator: ", "))")
        }
    }
}
