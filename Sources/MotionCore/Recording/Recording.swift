import MotionSystem

/// A whole recording in memory: its header, every sample, and the per-sample labels if any.
/// For long files prefer streaming with ``RecordingReader``.
public struct Recording: Sendable, Equatable {
    /// Dialect, columns and metadata.
    public var header: RecordingHeader
    /// Every sample, in file order (timestamps strictly increasing).
    public var samples: [Sample]
    /// One label per sample (`nil` where empty), or `nil` when the file has no `label` column.
    public var labels: [String?]?
    /// Tolerated defects, one per kind and file (a dropped torn final line, the timing defects of imported dialects).
    public var warnings: [RecordingWarning]
    /// The event lines (format version 2: pauses, a lost device, ...), in file order, each placed
    /// by its ``RecordingEvent/sampleIndex`` (the index of the sample after it).
    public var events: [RecordingEvent]

    /// Creates a recording value.
    public init(header: RecordingHeader, samples: [Sample], labels: [String?]? = nil, warnings: [RecordingWarning] = [],
                events: [RecordingEvent] = []) {
        self.header = header
        self.samples = samples
        self.labels = labels
        self.warnings = warnings
        self.events = events
    }

    /// Reads a whole recording file (any dialect) into memory.
    /// - Throws: ``RecordingError`` (with file, line, column, problem) or ``SystemError``.
    /// - Complexity: O(file size) time and memory.
    public static func read(path: String) throws -> Recording {
        try read(try RecordingReader(path: path))
    }

    /// Reads everything `reader` has left into memory (any dialect and input).
    /// - Throws: ``RecordingError`` (with file, line, column, problem) or ``SystemError``.
    public static func read(_ reader: RecordingReader) throws -> Recording {
        var samples: [Sample] = []
        var labels: [String?] = []
        var events: [RecordingEvent] = []
        while try reader.read(into: &samples, labels: &labels, events: &events, maxSamples: 1 << 16) > 0 {}
        // Events after the last row come with the call that appends no rows.
        return Recording(header: reader.header, samples: samples,
                         labels: reader.header.hasLabels ? labels : nil, warnings: reader.warnings, events: events)
    }
}
