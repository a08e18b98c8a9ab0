import MotionCore
import MotionSystem

/// Where `convert` writes several recordings (several IN, or a folder of recordings): into the
/// folder OUT, each output named after its input's path below the folder argument (a file or
/// export argument: its name), the extension replaced by `.csv` (`walk.csv.gz`: `walk.csv`,
/// `day1/walk.zip`: `day1/walk.csv`, the export folder `ios-walk`: `ios-walk.csv`).
///
/// Checked before anything is written: OUT is a folder or missing (not `-`, not a file), no input
/// is standard input, no two inputs get the same output, and no output that exists is an input
/// (compared by device and inode). OUT and the sub-folders an output needs are created when the
/// first output in them is written, so a run that converts nothing leaves no empty folder.
struct ConvertPlan {
    /// One recording and the file it is converted to.
    struct Item {
        var input: EachFile.Input
        /// The output's path below OUT.
        var relativeOutput: String
        /// The output's path (OUT, `/`, ``relativeOutput``).
        var output: String
    }

    /// OUT, without a trailing `/`.
    let folder: String
    /// The recordings in the order they are converted.
    let items: [Item]

    /// Plans the conversion of `inputs` (``EachFile/inputs(_:folders:io:)``) into the folder `out`.
    /// - Throws: ``CLIError/usage(_:)`` when `out` is `-` or a file, or an input is `-`;
    ///   ``CLIError/failure(_:exitCode:)`` when two inputs would get the same output or an
    ///   existing output is an input.
    init(inputs: [EachFile.Input], folder out: String) throws(CLIError) {
        let count = "\(inputs.count) recording\(inputs.count == 1 ? "" : "s")"
        if inputs.contains(where: { $0.argument == "-" }) {
            throw .usage("'-' (standard input) is converted alone: with several recordings (\(count)), give files or folders.")
        }
        if out == "-" {
            throw .usage("OUT must be a folder when converting several recordings (\(count)), not '-' (standard output).")
        }
        if Directory.exists(out) && !Directory.isDirectory(out) {
            throw .usage("OUT must be a folder when converting several recordings (\(count)): \(DiagnosticText.escaped(out.utf8, limit: 120)) is a file.")
        }
        let folder = out.count > 1 && out.hasSuffix("/") ? String(out.dropLast()) : out
        self.folder = folder
        items = inputs.map { input in
            let name = Self.outputName(input)
            return Item(input: input, relativeOutput: name, output: folder + "/" + name)
        }
        var planned: [String: String] = [:]
        for item in items {
            if let other = planned[item.relativeOutput] {
                throw .failure("\(DiagnosticText.escaped(other.utf8, limit: 120)) and \(DiagnosticText.escaped(item.input.path.utf8, limit: 120)) would both be written to \(DiagnosticText.escaped(item.output.utf8, limit: 120)); convert them into different folders.")
            }
            planned[item.relativeOutput] = item.input.path
        }
        var inputIdentities: [FileIdentity: String] = [:]
        for item in items {
            if let id = (try? FileIdentity.of(path: item.input.path)) ?? nil, inputIdentities[id] == nil { inputIdentities[id] = item.input.path }
        }
        for item in items {
            if let id = (try? FileIdentity.of(path: item.output)) ?? nil, let input = inputIdentities[id] {
                throw .failure("\(DiagnosticText.escaped(item.output.utf8, limit: 120)) is the input \(DiagnosticText.escaped(input.utf8, limit: 120)) itself (same file: \(id)); write to another folder.")
            }
        }
    }

    /// The output's path below OUT for `input`: its path below the folder argument (else the
    /// argument's last component), a `.gz` and then the last extension replaced by `.csv`.
    static func outputName(_ input: EachFile.Input) -> String {
        let path = input.relative ?? (input.argument.split(separator: "/").last.map(String.init) ?? input.argument)
        var folder = ""
        var name = Substring(path)
        if let slash = path.lastIndex(of: "/") {
            folder = String(path[...slash])
            name = path[path.index(after: slash)...]
        }
        if name.count > 3 && name.lowercased().hasSuffix(".gz") { name = name.dropLast(3) }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return folder + name + ".csv"
    }

    /// Creates OUT and the sub-folders of `item`'s output (those that exist are fine).
    /// - Throws: ``SystemError`` from `mkdir`.
    func createFolders(for item: Item) throws(SystemError) {
        var path = folder
        try Directory.create(path)
        for component in item.relativeOutput.split(separator: "/").dropLast() {
            path += "/" + component
            try Directory.create(path)
        }
    }
}
