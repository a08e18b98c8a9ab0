import MotionCore

/// The one replay of a recording file through the analysis, used by every command that analyses
/// a file (`replay`, `steps`, `wakes RECORDING`, `eval`): it streams the file with MotionCore's
/// ``MotionCore/RecordingReader`` (flat memory, either dialect) and pushes every chunk, with its
/// labels when the file has a `label` column and its event lines (pauses, a lost device: the
/// pipeline is interrupted there, as it was live), into one or more ``ReplaySession``s (one per
/// delivery policy or rate), which deliver it to their pipelines.
///
/// The thin driver of the pure sessions: the only part of the pipeline that does I/O (reading the
/// file, through the reader).
///
/// ```swift
/// let replay = try RecordingReplay.run(path: "walk.csv") { header in
///     [ReplaySession(policy: .latency(seconds: 1), pipeline: makePipeline(header), labelled: header.hasLabels)]
/// }
/// let steps = replay.sessions[0].pipeline.result(of: stepsHandle)
/// ```
public struct RecordingReplay {
    /// The path given.
    public var path: String
    /// The recording's dialect, columns and metadata.
    public var header: RecordingHeader
    /// Tolerated defects, one per kind and file (a torn final line; the timing defects of other dialects).
    public var warnings: [RecordingWarning]
    /// The sessions, finished, in the order they were made.
    public var sessions: [ReplaySession]
    /// The recording's event lines (pauses, lost devices, ...), in file order.
    public var events: [RecordingEvent] = []

    /// Rows read from the file per chunk: enough that the reader hands its parsed blocks over whole.
    public static let chunkSamples = 1 << 16

    /// Replays the recording at `path` into the sessions `makeSessions` builds from its header.
    /// - Parameters:
    ///   - transform: applied to every chunk of samples before the sessions see it (e.g. an
    ///     evaluation's amplitude scaling); it must keep the count and the time order.
    ///   - progress: called after each chunk with the bytes of the file read so far.
    ///   - makeSessions: the sessions, from the header; a labelled session (only when
    ///     `header.hasLabels`) is given the `label` column, others are not.
    /// - Throws: the reader's ``MotionCore/RecordingError`` or `SystemError`; an analyzer's failure
    ///   as a ``MotionCore/RecordingError`` naming the file and the sample's line; whatever
    ///   `makeSessions` throws.
    /// - Complexity: O(file size) time; memory of one chunk plus what the sessions hold.
    public static func run(path: String, transform: ((inout [Sample]) -> Void)? = nil, progress: (Int) -> Void = { _ in },
                           sessions makeSessions: (RecordingHeader) throws -> [ReplaySession]) throws -> RecordingReplay {
        try run(reader: try RecordingReader(path: path), transform: transform, progress: progress, sessions: makeSessions)
    }

    /// Replays what `reader` reads (any dialect and input: a file, standard input, an archive),
    /// as ``run(path:transform:progress:sessions:)``; `progress` gets ``MotionCore/RecordingReader/inputBytesRead``.
    public static func run(reader: RecordingReader, transform: ((inout [Sample]) -> Void)? = nil, progress: (Int) -> Void = { _ in },
                           sessions makeSessions: (RecordingHeader) throws -> [ReplaySession]) throws -> RecordingReplay {
        let path = reader.path
        let headerLines = reader.lineNumber
        var events: [RecordingEvent] = []
        var sessions = try makeSessions(reader.header)
        precondition(reader.header.hasLabels || !sessions.contains(where: \.isLabelled), "a labelled session needs a file with a label column")
        func failure(_ f: AnalysisFailure) -> RecordingError {
            // The sample's line: the header, the rows before it and the event lines before it.
            RecordingError(file: path, line: f.sampleIndex.map { i in headerLines + i + 1 + events.filter { $0.sampleIndex <= i }.count },
                           problem: f.description)
        }
        do {
            while var chunk = try reader.next(maxSamples: chunkSamples) {
                transform?(&chunk.samples)
                events += chunk.events
                for i in sessions.indices {
                    try sessions[i].push(chunk.samples, labels: sessions[i].isLabelled ? chunk.labels : nil, events: chunk.events)
                }
                progress(reader.inputBytesRead)
            }
            for i in sessions.indices { try sessions[i].finish() }
        } catch let f as AnalysisFailure {
            throw failure(f)
        }
        return RecordingReplay(path: path, header: reader.header, warnings: reader.warnings, sessions: sessions, events: events)
    }
}
