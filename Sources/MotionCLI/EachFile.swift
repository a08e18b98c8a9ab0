#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import MotionCore
import MotionSystem

/// How the commands that take several recordings (`replay`, `steps`, `activity`, `epochs`,
/// `convert`) process them: each file reported on its own, a file that fails reported on stderr (`Error: FILE:LINE:
/// ...`) without stopping the others, and at the end exit 1 when any failed. A usage error stops
/// at once; with one file its error is the command's.
///
/// A folder argument follows ``MotionCore/RecordingFolder``'s rule: an app's export is one
/// recording; any other folder is each recording inside it (`--recursive`: its sub-folders too),
/// in byte order, the entries skipped listed on stderr.
///
/// `--shard I/N` keeps the inputs whose index in byte-sorted path order is I modulo N (for a
/// cluster's job array: docs/research.md). `--jobs N` analyses N files at once, each on its own
/// thread reading with one thread; the results are printed in the input order whatever finishes
/// first, each file's output whole (`convert` takes `--shard`, not `--jobs`).
enum EachFile {
    /// How folder arguments are expanded and inputs selected.
    struct Folders {
        /// `--recursive`: search sub-folders too.
        var recursive = false
        /// A dialect was forced: every regular file is a recording.
        var anyFile = false
        /// `--shard I/N`: the part of the inputs to process, nil for all.
        var shard: Shard?
        /// `--jobs N`: files analysed at once (nil: the processors, when there are several files).
        var jobs: Int?
    }

    /// `--shard I/N`: inputs `I`, `I + N`, `I + 2N`, ... of the byte-sorted inputs (0-based).
    struct Shard: Equatable {
        var index: Int
        var count: Int

        /// Parses `I/N` with 0 ≤ I < N ≤ 1,000,000.
        init?(parsing text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, i >= 0, i < n,
                  parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII) else { return nil }
            index = i
            count = n
        }

        /// The positions in `paths` of this shard's inputs, in their given order.
        func indices(_ paths: [String]) -> [Int] {
            let sorted = paths.indices.sorted { Array(paths[$0].utf8).lexicographicallyPrecedes(Array(paths[$1].utf8)) }
            var keep = [Bool](repeating: false, count: paths.count)
            for (rank, i) in sorted.enumerated() where rank % count == index { keep[i] = true }
            return paths.indices.filter { keep[$0] }
        }
    }

    /// `--recursive`, for a command's spec.
    static let recursiveOption = OptionSpec.flag("recursive", help: "In a folder that is not an app's export, also read the recordings in its sub-folders.")

    /// `--shard`, for a command's spec.
    static let shardOption = OptionSpec.option("shard", value: "I/N", help: "Process only the inputs whose index in byte-sorted path order is I modulo N (0-based), e.g. one task of a cluster's job array.")

    /// `--jobs` and `--shard`, for a command's spec.
    static let parallelOptions: [OptionSpec] = [
        .option("jobs", short: "j", value: "N", help: "Analyse N files at once, each read with one thread (default: the number of processors; results in the input order)."),
        shardOption,
    ]

    /// The folder, shard and jobs options of `args` (with the input options' forced dialect).
    /// - Throws: ``CLIError/usage(_:)`` for a bad `--jobs` or `--shard`.
    static func folders(_ args: ParsedArguments, input: InputOptions) throws(CLIError) -> Folders {
        var f = Folders(recursive: args.flag("recursive"), anyFile: input.dialect != nil)
        if args.string("jobs") != nil { f.jobs = try args.int("jobs", rule: InputLimits.positiveCount.narrowed(to: 1...1024)) }
        if let text = args.string("shard") {
            guard let shard = Shard(parsing: text) else {
                throw .usage("The value '\(DiagnosticText.escaped(text.utf8))' is invalid for '--shard': expected I/N with 0 <= I < N <= 1000000, such as 0/4.")
            }
            f.shard = shard
        }
        return f
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

    /// The inputs to process: folders expanded, then the shard's part (``Shard/select(_:)``).
    /// - Throws: ``CLIError/usage(_:)`` for `-` with `--shard` or `-` given more than once.
    static func selectedInputs(_ arguments: [String], folders: Folders, io: CommandIO) throws -> [Input] {
        guard arguments.filter({ $0 == "-" }).count <= 1 else {
            throw CLIError.usage("'-' (standard input) can be read only once.")
        }
        let all = try inputs(arguments, folders: folders, io: io)
        guard let shard = folders.shard else { return all }
        if all.contains(where: { $0.path == "-" }) { throw CLIError.usage("'--shard' selects inputs by path: '-' (standard input) cannot be sharded.") }
        return shard.indices(all.map(\.path)).map { all[$0] }
    }

    /// ``selectedInputs(_:folders:io:)``'s paths.
    static func selected(_ arguments: [String], folders: Folders, io: CommandIO) throws -> [String] {
        try selectedInputs(arguments, folders: folders, io: io).map(\.path)
    }

    /// The jobs to run `count` files with: `--jobs`, else the online processors; never more than the files.
    static func jobCount(_ folders: Folders, files count: Int) -> Int {
        let requested = folders.jobs ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return max(1, min(requested, count))
    }

    /// Whether each reader should parse on one thread: with `--jobs` given, or several files
    /// analysed at once (the parallelism is then across files).
    static func singleThreadedReads(_ folders: Folders, files count: Int) -> Bool {
        folders.jobs != nil || jobCount(folders, files: count) > 1
    }

    /// Runs `body` for every input of `arguments` (folders expanded, shard selected), `--jobs` at
    /// once, each with the ``CommandIO`` it must write to (with several jobs, a buffer printed when
    /// the file's turn comes: results keep the input order).
    /// - Throws: ``CLIError/usage(_:)`` when `-` (standard input) is given more than once or
    ///   `body` finds a usage error; ``CLIError/failure(_:exitCode:)`` naming how many files
    ///   failed, after all were tried.
    /// `body` gets the input options to read with: one reader thread when
    /// ``singleThreadedReads(_:files:)``.
    static func run(_ arguments: [String], io: CommandIO, folders: Folders = Folders(), input: InputOptions = .none,
                    _ body: (String, CommandIO, InputOptions) throws -> Void) throws {
        let files = try selected(arguments, folders: folders, io: io)
        if files.isEmpty, folders.shard != nil { return }
        var input = input
        if singleThreadedReads(folders, files: files.count) { input.readThreads = 1 }
        guard files.count > 1 else {
            for f in files { try body(f, io, input) }
            return
        }
        let jobs = jobCount(folders, files: files.count)
        var failed: [String] = []
        func settle(_ file: String, _ error: (any Error)?) throws {
            guard let error else { return }
            if let e = error as? CLIError, e.exitCode == 64 { throw e }
            io.err("Error: \(DiagnosticText.sanitized("\(error)"))")
            failed.append(file)
        }
        if jobs == 1 {
            for file in files {
                var caught: (any Error)?
                do { try body(file, io, input) } catch { caught = error }
                try settle(file, caught)
            }
        } else {
            try withoutActuallyEscaping(body) { body in
                let pool = ParallelFiles(files: files, jobs: jobs, body: { file, io in try body(file, io, input) })
                defer { pool.cancel() }
                for i in files.indices {
                    let result = pool.result(i)
                    // Consecutive writes to one stream in one piece: a file's results reach
                    // stdout whole (an interrupt leaves no half of them).
                    var pending = "", pendingIsOut = true
                    func flush() {
                        guard !pending.isEmpty else { return }
                        if pendingIsOut { io.writeOut(pending) } else { io.writeErr(pending) }
                        pending = ""
                    }
                    for chunk in result.output {
                        let (text, isOut): (String, Bool) = switch chunk {
                        case .out(let s): (s, true)
                        case .err(let s): (s, false)
                        }
                        if isOut != pendingIsOut { flush(); pendingIsOut = isOut }
                        pending += text
                    }
                    flush()
                    try settle(files[i], result.error)
                }
            }
        }
        if !failed.isEmpty {
            throw CLIError.failure("\(failed.count) of \(files.count) files failed: \(failed.map { DiagnosticText.escaped($0.utf8, limit: 80) }.joined(separator: ", "))")
        }
    }

    /// Runs `body` for every recording of `files` (already expanded and selected:
    /// ``selectedInputs(_:folders:io:)``), each in turn; a failure is reported and the others
    /// still run (`convert`, which writes a file per input).
    /// - Throws: ``CLIError/usage(_:)`` when `body` finds a usage error;
    ///   ``CLIError/failure(_:exitCode:)`` naming how many files failed, after all were tried.
    static func run(expanded files: [String], io: CommandIO, _ body: (String) throws -> Void) throws {
        var folders = Folders()
        folders.jobs = 1
        try run(files, io: io, folders: folders) { file, _, _ in try body(file) }
    }
}

/// The worker threads of `--jobs`: each takes the next file, runs the command's body with a
/// ``CommandIO`` that buffers what it writes, and hands the buffer over in a slot the caller
/// waits on in input order. At most `4 × jobs` files run ahead of the one printed, so memory
/// stays bounded however many files there are.
private final class ParallelFiles: @unchecked Sendable {
    /// What one file's run wrote, in order.
    enum Chunk {
        case out(String)
        case err(String)
    }

    /// One file's outcome.
    struct Result {
        var output: [Chunk] = []
        var error: (any Error)?
    }

    private final class Slot: @unchecked Sendable {
        var result = Result()
        let ready = DispatchSemaphore(value: 0)
    }

    private let files: [String]
    /// Released by ``cancel()`` once no worker runs it (it must not outlive the caller's frame).
    private var body: ((String, CommandIO) throws -> Void)?
    private let slots: [Slot]
    private let lock = DispatchSemaphore(value: 1)
    private let ahead: DispatchSemaphore
    private var next = 0          // guarded by lock
    private var cancelled = false // guarded by lock
    private var started = 0       // set once in init
    private let done = DispatchSemaphore(value: 0)

    /// Starts `jobs` threads (on the caller's thread when none can be started).
    init(files: [String], jobs: Int, body: @escaping (String, CommandIO) throws -> Void) {
        self.files = files
        self.body = body
        slots = files.map { _ in Slot() }
        ahead = DispatchSemaphore(value: 0)
        for _ in 0..<(4 * jobs) { ahead.signal() }
        var n = 0
        for _ in 0..<jobs where WorkerThread.start({ [self] in work() }) { n += 1 }
        started = n
        if n == 0 {
            // No thread: every file here, in order (nothing waits for the caller).
            for _ in files { ahead.signal() }
            work(signalDone: false)
        }
    }

    /// File `i`'s outcome, once its run has ended (call in increasing `i`).
    func result(_ i: Int) -> Result {
        slots[i].ready.wait()
        let r = slots[i].result
        slots[i].result = Result()
        ahead.signal()
        return r
    }

    /// Stops handing out files and waits for the runs in progress to end (the body's closures must
    /// not outlive the caller).
    func cancel() {
        lock.wait()
        cancelled = true
        lock.signal()
        for _ in 0..<(4 * max(1, started) + files.count) { ahead.signal() }
        for _ in 0..<started { done.wait() }
        body = nil
    }

    private func work(signalDone: Bool = true) {
        defer { if signalDone { done.signal() } }
        while true {
            ahead.wait()
            lock.wait()
            if cancelled || next >= files.count {
                lock.signal()
                return
            }
            let i = next
            next += 1
            lock.signal()
            let buffer = OutputBuffer()
            let io = CommandIO(writeOut: { buffer.chunks.append(.out($0)) }, writeErr: { buffer.chunks.append(.err($0)) })
            var result = Result()
            do { try body?(files[i], io) } catch { result.error = error }
            result.output = buffer.chunks
            slots[i].result = result
            slots[i].ready.signal()
        }
    }

    private final class OutputBuffer {
        var chunks: [Chunk] = []
    }
}
