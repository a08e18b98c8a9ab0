#if canImport(Glibc)
import Glibc
#endif
import MotionCore
import MotionSystem

/// `motionbatch epochs --merge FILE...`: joins the `--csv` (or `--json`) outputs of `epochs
/// --shard I/N` runs into what one run over the same inputs prints when they are in byte order (a
/// folder): one header, then each recording's rows, recordings in byte order of their paths.
///
/// Streamed: each output is read a record at a time and the recordings are merged as sorted
/// runs (every shard prints its recordings in byte order), so memory does not grow with the
/// outputs. A recording found in two outputs, outputs of different kinds or headers, or an output
/// whose recordings are not in byte order is an error naming the file and line.
enum EpochsMerge {
    /// Largest record (a CSV row or a JSON line) read: 256 MiB.
    static let maxRecordBytes = 1 << 28

    static func run(_ files: [String], args: ParsedArguments, io: CommandIO) throws {
        for o in ["per", "min-wear-hours", "nonwear-sd", "nonwear-range", "nonwear-axes", "nonwear-window", "jobs", "shard"] where args.string(o) != nil {
            throw CLIError.usage("'--\(o)' does not go with '--merge' (it joins outputs already made).")
        }
        if args.flag("recursive") { throw CLIError.usage("'--recursive' does not go with '--merge'.") }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw CLIError.usage("'-' (standard input) can be read only once.") }
        var inputs: [Input] = []
        for f in files { inputs.append(try Input(f)) }
        let csv = inputs.first?.isCSV ?? true
        if args.flag("json") && csv || args.flag("csv") && !csv {
            throw CLIError.failure("\(DiagnosticText.escaped(files[0].utf8, limit: 120)): is \(csv ? "CSV" : "JSON") output, not what \(csv ? "--json" : "--csv") asks for")
        }
        for input in inputs where input.isCSV != csv {
            throw CLIError.failure("\(input.name): is \(input.isCSV ? "CSV" : "JSON") output and \(inputs[0].name) is \(csv ? "CSV" : "JSON"): merge outputs of one kind")
        }
        if csv {
            let header = inputs[0].header
            for input in inputs where input.header != header {
                throw CLIError.failure("\(input.name):1: its header differs from \(inputs[0].name)'s: merge outputs of the same command and options")
            }
            if let header { io.writeOut(header) }
        }
        var last: [UInt8]?
        var lastFrom = ""
        while true {
            var best: Int?
            for i in inputs.indices {
                guard let key = try inputs[i].headKey() else { continue }
                if let b = best, let bk = try inputs[b].headKey(), !key.lexicographicallyPrecedes(bk) {
                    if key == bk {
                        throw CLIError.failure("\(inputs[i].name):\(inputs[i].line): '\(DiagnosticText.escaped(key, limit: 120))' is also in \(inputs[b].name): each recording must be in one output only")
                    }
                    continue
                }
                best = i
            }
            guard let b = best else { break }
            let key = try inputs[b].headKey()!
            if let last, !last.lexicographicallyPrecedes(key) {
                throw CLIError.failure("\(inputs[b].name):\(inputs[b].line): '\(DiagnosticText.escaped(key, limit: 120))' comes after '\(DiagnosticText.escaped(last, limit: 120))' of \(lastFrom): \(key == last ? "a recording in two outputs" : "the outputs' recordings are not in byte order (make them with epochs --shard over a folder)")")
            }
            last = key
            lastFrom = inputs[b].name
            while let k = try inputs[b].headKey(), k == key {
                io.writeOut(String(decoding: try inputs[b].takeRecord(), as: UTF8.self))
            }
        }
        if let failure = io.outputFailure() { throw CLIError.failure(failure) }
    }

    /// One output being merged: its records, the recording each belongs to.
    struct Input {
        let name: String
        let isCSV: Bool
        /// The CSV header line (with its newline), nil for JSON.
        let header: String?
        private let reader: RecordReader
        private var head: (record: [UInt8], key: [UInt8])?
        private var headRead = false
        /// The line the head record starts on.
        private(set) var line = 0

        init(_ path: String) throws {
            name = DiagnosticText.escaped(path.utf8, limit: 120)
            reader = try RecordReader(path: path, name: name)
            guard let first = try reader.next(csv: false) else {
                throw CLIError.failure("\(name): is empty, not an output of 'epochs --csv' or 'epochs --json'")
            }
            if first.bytes.first == UInt8(ascii: "{") {
                isCSV = false
                header = nil
                head = (first.bytes, try Self.jsonKey(first.bytes, name: name, line: first.line))
                line = first.line
                headRead = true
            } else {
                isCSV = true
                let text = String(decoding: first.bytes, as: UTF8.self)
                guard text.hasPrefix("file,") else {
                    throw CLIError.failure("\(name):1: expected the header of 'epochs --csv' (file,start,...) or a JSON line, found '\(DiagnosticText.escaped(first.bytes.prefix(60), limit: 60))'")
                }
                header = text
            }
        }

        /// The recording of the next record, nil at the end.
        mutating func headKey() throws -> [UInt8]? {
            if !headRead {
                headRead = true
                if let r = try reader.next(csv: isCSV) {
                    line = r.line
                    head = (r.bytes, isCSV ? try Self.csvKey(r.bytes, name: name, line: r.line) : try Self.jsonKey(r.bytes, name: name, line: r.line))
                } else {
                    head = nil
                }
            }
            return head?.key
        }

        /// Takes the next record (after ``headKey()`` returned its recording).
        mutating func takeRecord() throws -> [UInt8] {
            _ = try headKey()
            let r = head!.record
            head = nil
            headRead = false
            return r
        }

        /// The first field of a CSV record, unquoted.
        static func csvKey(_ record: [UInt8], name: String, line: Int) throws -> [UInt8] {
            var out: [UInt8] = []
            var i = 0
            if record.first == UInt8(ascii: "\"") {
                i = 1
                while i < record.count {
                    if record[i] == UInt8(ascii: "\"") {
                        if i + 1 < record.count && record[i + 1] == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\"")); i += 2; continue }
                        return out
                    }
                    out.append(record[i])
                    i += 1
                }
                throw CLIError.failure("\(name):\(line): a quoted file name without its closing quote")
            }
            while i < record.count && record[i] != UInt8(ascii: ",") && record[i] != UInt8(ascii: "\n") && record[i] != UInt8(ascii: "\r") {
                out.append(record[i])
                i += 1
            }
            guard i < record.count && record[i] == UInt8(ascii: ",") else {
                throw CLIError.failure("\(name):\(line): expected a row of 'epochs --csv', found one field")
            }
            return out
        }

        /// The `file` of an `epochs --json` line.
        static func jsonKey(_ record: [UInt8], name: String, line: Int) throws -> [UInt8] {
            let node: JSONNode
            do { node = try JSONReader.parse(record, maxBytes: EpochsMerge.maxRecordBytes) } catch {
                throw CLIError.failure("\(name):\(line): not a JSON line of 'epochs --json': \(error)")
            }
            guard case .number(let schema)? = node["schema"]?.value, schema == Double(EpochsCommand.schema),
                  case .string(let file)? = node["file"]?.value, case .array? = node["epochs"]?.value else {
                throw CLIError.failure("\(name):\(line): not an object of 'epochs --json' (schema \(EpochsCommand.schema) with file and epochs)")
            }
            return Array(file.utf8)
        }
    }

    /// Records of a file: lines, or CSV records (a quoted field may hold line breaks), each with
    /// its line break.
    final class RecordReader {
        private let file: FileDescriptor
        private let name: String
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var start = 0, end = 0
        private var atEOF = false
        private var nextLine = 1

        init(path: String, name: String) throws {
            self.name = name
            if path == "-" {
                let fd = dup(0)
                guard fd >= 0 else { throw CLIError.failure("-: cannot read standard input (dup: errno \(errno))") }
                file = FileDescriptor(adopting: fd, path: "-")
            } else {
                do { file = try FileDescriptor.openForReading(path) } catch { throw CLIError.failure("\(error)") }
            }
        }

        /// The next record and the line it starts on, nil at the end.
        func next(csv: Bool) throws -> (bytes: [UInt8], line: Int)? {
            var record: [UInt8] = []
            var quotes = 0
            let line = nextLine
            while true {
                if start == end {
                    if atEOF { return record.isEmpty ? nil : (record + [UInt8(ascii: "\n")], line) }
                    let n: Int
                    do { n = try buffer.withUnsafeMutableBytes { b throws(SystemError) in try file.read(into: b.baseAddress!, count: b.count) } } catch {
                        throw CLIError.failure("\(name): \(error)")
                    }
                    if n == 0 { atEOF = true; continue }
                    start = 0
                    end = n
                }
                while start < end {
                    let c = buffer[start]
                    start += 1
                    record.append(c)
                    if c == UInt8(ascii: "\"") { quotes += 1 }
                    if c == UInt8(ascii: "\n") {
                        nextLine += 1
                        if !csv || quotes % 2 == 0 { return (record, line) }
                    }
                }
                if record.count > EpochsMerge.maxRecordBytes {
                    throw CLIError.failure("\(name):\(line): a record longer than \(EpochsMerge.maxRecordBytes) bytes")
                }
            }
        }
    }
}
