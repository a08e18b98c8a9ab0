extension RecordingCSVReader: RecordingSampleSource {
    var name: String { path }
    var timeColumn: String { header.columns[0] }

    /// The rows of a plain CSV file with their lines (consecutive: every line after the header is a row).
    func read(into samples: inout [Sample], labels: inout [String?], lines: inout [Int], maxSamples: Int) throws -> Int {
        let first = lineNumber + 1
        let n = try read(into: &samples, labels: &labels, maxSamples: maxSamples)
        lines.append(contentsOf: first..<(first + n))
        return n
    }
}
