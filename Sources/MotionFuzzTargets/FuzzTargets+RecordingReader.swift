import MotionCore

extension FuzzTargets {
    /// The recording reader, through its one entry point (``RecordingReader/init(input:dialect:options:)``),
    /// every registered dialect: each input is read as it comes (the dialect recognised from its
    /// content, gzip and zip unpacked), then forced as a raw IIO buffer with a fixed scan layout
    /// (``fuzzLayout``) and as an arbitrary CSV with a fixed column mapping (``fuzzColumns``): the two
    /// dialects whose options the file cannot carry. Any bytes either read or fail with a line- and
    /// column-numbered (for binary inputs, byte-numbered), printable error; what is read obeys
    /// ``InputLimits`` and increases in time; the result does not depend on the block size or the
    /// chunk size; and what is read, written again by ``RecordingEncoder`` (MotionBatch format and
    /// plain CSV), reads back to the same samples and labels.
    @Sendable public static func recordingReader(_ data: [UInt8]) {
        checkReader(data, dialect: nil, options: RecordingDialectOptions())
        checkReader(data, dialect: RecordingDialects.named("iio"), options: RecordingDialectOptions(scanLayout: fuzzLayout))
        checkReader(data, dialect: RecordingDialects.named("columns"), options: fuzzColumns)
    }

    /// The scan layout the raw-buffer reading uses (scripts/export-dialects.py's): three s16 axes, 2 bytes of padding, an s64 timestamp.
    static let fuzzLayout: IIOBufferLayout? = try? IIOBufferLayout(parsing: "accel_x:le:s16/16>>0:0.0023942,accel_y:le:s16/16>>0:0.0023942,accel_z:le:s16/16>>0:0.0023942,timestamp:le:s64/64>>0")

    /// The column mapping the arbitrary-CSV reading uses (`--columns time=t,x=ax,y=ay,z=az
    /// --time-unit ms --accel-unit g`).
    static let fuzzColumns = RecordingDialectOptions(columns: ColumnSelection(time: "t", accel: ["ax", "ay", "az"], label: "label"), timeUnit: .milliseconds, accelUnit: .standardGravity)

    /// One reading of `data` (with `dialect` and `options`) and its promises.
    static func checkReader(_ data: [UInt8], dialect: (any RecordingDialect)?, options: RecordingDialectOptions) {
        let a = readAll(data, dialect: dialect, options: options, bufferSize: 64 + data.count % 200, threads: 1, chunk: 7)
        // One thread in both: with two, coverage (and so the fuzzer's path through its mutations)
        // would depend on the threads' timing, and `scripts/fuzz.sh replay` must be the same every
        // time. That the thread count changes nothing is RecordingBlockPipelineTests' job.
        let b = readAll(data, dialect: dialect, options: options, bufferSize: RecordingReader.defaultBufferSize, threads: 1, chunk: 4096)
        // A line longer than the small block is an error there only; otherwise the block size
        // and the chunk size change nothing.
        // Known limit (docs/dialects.md): an export of several members (a zip: accelerometer and
        // gyroscope streams read side by side) that is damaged may report a different member's
        // error first, or none for a damaged tail of a secondary stream, depending on how far each
        // stream was read ahead; an intact one reads the same whatever the block size.
        let damagedArchive = ZipArchive.isZip(data) && (a.error != nil || b.error != nil)
        if !a.tooLong && !b.tooLong && !damagedArchive {
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
        /// The dialect that read it.
        var dialect: String?
        /// The error is a line longer than the block.
        var tooLong = false
    }

    /// Reads all of `data`, checking every error's form.
    static func readAll(_ data: [UInt8], dialect: (any RecordingDialect)? = nil, options: RecordingDialectOptions = RecordingDialectOptions(),
                        bufferSize: Int, threads: Int, chunk: Int) -> ReadResult {
        var result = ReadResult()
        do {
            let reader = try RecordingReader(input: .bytes(data, name: "fuzz.csv"), dialect: dialect,
                                             options: RecordingReadOptions(bufferSize: bufferSize, threads: threads, dialect: options))
            result.header = reader.header
            result.dialect = reader.dialect.name
            while try reader.read(into: &result.samples, labels: &result.labels, maxSamples: chunk) > 0 {}
            result.warnings = reader.warnings
        } catch let error as RecordingError {
            checkError(error, zip: ZipArchive.isZip(data))
            result.error = error.description
            result.tooLong = error.problem.hasPrefix("line is longer than")
        } catch {
            FuzzInvariant.check(false, "unexpected error type from memory: \(error)")
        }
        return result
    }

    /// Every reader error names the file (for a zip archive's member, `fuzz.csv/MEMBER`) and a line
    /// and a column, or for a binary input (raw IIO buffer, zip, gzip) a byte offset, or, for a
    /// problem with a zip archive as a whole (no recording in it, two candidates), nothing more;
    /// and is printable.
    static func checkError(_ e: RecordingError, zip: Bool = false) {
        FuzzInvariant.check(e.file == "fuzz.csv" || e.file.hasPrefix("fuzz.csv/") || e.file == "roundtrip", "error without the file: \(e)")
        let placed = (e.line ?? 0) >= 1 && (e.column ?? 0) >= 1
        let binary = e.line == nil && (e.byteOffset ?? -1) >= 0
        let wholeArchive = zip && e.line == nil && e.column == nil
        FuzzInvariant.check(placed || binary || wholeArchive, "error without line and column (or byte offset): \(e)")
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
