import MotionCore
import MotionSystem

/// How the commands that take several recordings (`replay`, `steps`, `activity`, `convert`)
/// process them: each file in turn, a file that fails reported on stderr (`Error: FILE:LINE:
/// ...`) without stopping the others, and at the end exit 1 when any failed. A usage error stops
/// at once; with one file its error is the command's.
///
/// A folder argument follows ``MotionCore/RecordingFolder``'s rule: an app's export is one
/// recording; any other folder is each recording inside it (`--recursive`: its sub-folders too),
/// in byte order, the entries skipped listed on stderr.
enum EachFile {
    /// How folder arguments are expanded.
    struct Folders {
        /// `--recursive`: search sub-folders too.
        var recursive = false
        /// A dialect was forced: every regular file is a recording.
        var anyFile = false
    }

    /// `--recursive`, for a command's spec.
    static let recursiveOption = OptionSpec.flag("recursive", help: "In a folder that is not an app's export, also read the recordings in its sub-folders.")

    /// The folder options of `args` (with the input options' forced dialect).
    static func folders(_ args: ParsedArguments, input: InputOptions) -> Folders {
        Folders(recursive: args.flag("recursive"), anyFile: input.dialect != nil)
    }

    /// One recording a command is given: its path, and the argument that named it (a file, an
    /// export, or the folder it was found in).
    struct Input: Equatable {
        /// The recording's path (for a folder's recording: the folder's path, `/`, the names below it).
        var path: String
        /// The argument it came from.
        var argument: String
        /// Its path below the folder argument (`walk.csv`, `day1/walk.csv` with `--recursive`); nil
        /// when the argument is the recording itself.
        var relative: String?
    }

    /// Whether `argument` is a folder of recordings (a folder that is not an app's export), which
    /// ``expand(_:folders:io:)`` replaces by the recordings inside it.
    static func isFolderOfRecordings(_ argument: String) -> Bool {
        argument != "-" && Directory.isDirectory(argument) && !RecordingFolder.isExport(argument)
    }

    /// `arguments` with every folder that is not an export replaced by the recordings inside it
    /// (a folder without any stays, for the reader to say what it holds); the entries skipped
    /// are listed on stderr, one line per folder.
    static func expand(_ arguments: [String], folders: Folders, io: CommandIO) throws -> [String] {
        try inputs(arguments, folders: folders, io: io).map(\.path)
    }

    /// ``expand(_:folders:io:)`` with where each recording came from.
    static func inputs(_ arguments: [String], folders: Folders, io: CommandIO) throws -> [Input] {
        var out: [Input] = []
        for argument in arguments {
            guard isFolderOfRecordings(argument) else {
                out.append(Input(path: argument, argument: argument))
                continue
            }
            let listing: RecordingFolder.Listing
            do { listing = try RecordingFolder.list(argument, recursive: folders.recursive, anyFile: folders.anyFile) } catch {
                throw CLIError.failure("\(error)")
            }
            if !listing.skipped.isEmpty {
                let shown = listing.skipped.prefix(20).map { DiagnosticText.escaped($0.utf8, limit: 120) }.joined(separator: ", ")
                io.err("\(DiagnosticText.escaped(argument.utf8, limit: 120)): skipped \(listing.skipped.count) \(listing.skipped.count == 1 ? "entry" : "entries"): \(shown)\(listing.skipped.count > 20 ? ", ..." : "")")
            }
            // The listing's paths are the folder's (without a trailing `/`), `/`, and the names below it.
            let folder = argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument
            out += listing.recordings.isEmpty ? [Input(path: argument, argument: argument)] : listing.recordings.map { path in
                Input(path: path, argument: argument, relative: path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : nil)
            }
        }
        return out
    }

    /// Runs `body` for every file of `files` (folders expanded by `folders`).
    /// - Throws: ``CLIError/usage(_:)`` when `-` (standard input) is given more than once or
    ///   `body` finds a usage error; ``CLIError/failure(_:exitCode:)`` naming how many files
    ///   failed, after all were tried.
    static func run(_ arguments: [String], io: CommandIO, folders: Folders = Folders(), _ body: (String) throws -> Void) throws {
        guard arguments.filter({ $0 == "-" }).count <= 1 else {
            throw CLIError.usage("'-' (standard input) can be read only once.")
        }
        try run(expanded: try expand(arguments, folders: folders, io: io), io: io, body)
    }

    /// Runs `body` for every recording of `files` (already expanded: ``expand(_:folders:io:)``),
    /// each in turn; a failure is reported and the others still run.
    /// - Throws: ``CLIError/usage(_:)`` when `body` finds a usage error;
    ///   ``CLIError/failure(_:exitCode:)`` naming how many files failed, after all were tried.
    static func run(expanded files: [String], io: CommandIO, _ body: (String) throws -> Void) throws {
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
