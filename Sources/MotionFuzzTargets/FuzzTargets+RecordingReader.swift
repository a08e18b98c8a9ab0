import MotionCore

extension FuzzTargets {
    /// The recording reader, through its one entry point (``RecordingReader/init(input:dialect:options:)``),
    /// every registered dialect: any bytes either read or fail with a line- and column-numbered,
    /// printable error; what is read obeys ``InputLimits``; the result does not depend on the
    /// block size or the chunk size; and what is read, written again by ``RecordingEncoder``
    /// (MotionBatch format and plain CSV), reads back to the same samples and labels.
    @Sendable public static func recordingReader(_ data: [UInt8]) {
        let a = readAll(data, bufferSize: 64 + data.count % 200, threads: 1, chunk: 7)
        // One thread in both: with two, coverage (and so the fuzzer's path through its mutations)
        // would depend on the threads' timing, and `scripts/fuzz.sh replay` must be the same every
        // time. That the thread count changes nothing is RecordingBlockPipelineTests' job.
        let b = readAll(data, bufferSize: RecordingReader.defaultBufferSize, threads: 1, chunk: 4096)
        // A line longer than the small block is an error there only; otherwise the block size
        // and the chunk size change nothing.
        if !a.tooLong && !b.tooLong {
            FuzzInvariant.check(a.samples == b.samples && a.labels == b.labels && a.error == b.error && a.warnings == b.warnings,
                                "results depend on the block size: \(a.error ?? "ok") vs \(b.error ?? "ok")")
        }
        guard b.error == nil, let header = b.header else { return }
        checkSamples(b.samples, labels: b.labels, header: header)
        for format in [RecordingFormat.current, .plain] {
            var h = header
            h.format = format
            if format == .plain { h.metadata = [:] }
            let bytes: [UInt8]
            do {
                var encoder = try RecordingEncoder(header: h, path: "roundtrip")
                var out = encoder.headerText
                try encoder.encode(b.samples, labels: b.labels, into: &out)
                bytes = out
            } catch {
                FuzzInvariant.check(false, "what was read cannot be written: \(error)")
                return
            }
            let again = readAll(bytes, bufferSize: RecordingReader.defaultBufferSize, threads: 1, chunk: 4096)
            FuzzInvariant.check(again.error == nil, "what was written does not read back: \(again.error ?? "")")
            FuzzInvariant.check(again.samples == b.samples, "samples change in a round trip")
            FuzzInvariant.check(again.labels == b.labels, "labels change in a round trip")
        }
    }

    /// What reading `data` gave: samples, labels, warnings, the error's text, the header.
    struct ReadResult {
        var samples: [Sample] = []
        var labels: [String?] = []
        var warnings: [RecordingWarning] = []
        var error: String?
        var header: RecordingHeader?
        /// The error is a line longer than the block.
        var tooLong = false
    }

    /// Reads all of `data`, checking every error's form.
    static func readAll(_ data: [UInt8], bufferSize: Int, threads: Int, chunk: Int) -> ReadResult {
        var result = ReadResult()
        do {
            let reader = try RecordingReader(input: .bytes(data, name: "fuzz.csv"), options: RecordingReadOptions(bufferSize: bufferSize, threads: threads))
            result.header = reader.header
            while try reader.read(into: &result.samples, labels: &result.labels, maxSamples: chunk) > 0 {}
            result.warnings = reader.warnings
        } catch let error as RecordingError {
            checkError(error)
            result.error = error.description
            result.tooLong = error.problem.hasPrefix("line is longer than")
        } catch {
            FuzzInvariant.check(false, "unexpected error type from memory: \(error)")
        }
        return result
    }

    /// Every reader error names the file, a line and a column, and is printable.
    static func checkError(_ e: RecordingError) {
        FuzzInvariant.check(e.file == "fuzz.csv" || e.file == "roundtrip", "error without the file: \(e)")
        FuzzInvariant.check((e.line ?? 0) >= 1 && (e.column ?? 0) >= 1, "error without line and column: \(e)")
        FuzzInvariant.check(FuzzInvariant.isPrintableMessage(e.description), "error text not escaped: \(e.description.debugDescription)")
    }

    /// The samples obey the limits and the order the reader promises.
    static func checkSamples(_ samples: [Sample], labels: [String?], header: RecordingHeader) {
        var previous: Int64?
        for s in samples {
            FuzzInvariant.check(InputLimits.containsTimestamp(s.timestamp), "timestamp out of range: \(s.timestamp)")
            if let previous { FuzzInvariant.check(s.timestamp > previous, "timestamps not increasing") }
            previous = s.timestamp
            for v in [s.accel.x, s.accel.y, s.accel.z, s.gyro.x, s.gyro.y, s.gyro.z] {
                FuzzInvariant.check(v.magnitude <= InputLimits.sampleMagnitude, "value out of range: \(v)")
            }
        }
        FuzzInvariant.check(header.hasLabels ? labels.count == samples.count : labels.isEmpty, "label count")
        for l in labels {
            if let l { FuzzInvariant.check(DiagnosticText.isPrintable(l.utf8) && !l.contains(",") && !l.contains("\""), "label not clean: \(l.debugDescription)") }
        }
        for (k, v) in header.metadata {
            FuzzInvariant.check(DiagnosticText.isPrintable(k.utf8) && DiagnosticText.isPrintable(v.utf8), "header entry not printable")
        }
    }
}
