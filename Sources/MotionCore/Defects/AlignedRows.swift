/// One recording out of several streams sampled at their own times, as phone apps export one
/// file per sensor: the accelerometer stream gives the samples and their timestamps; each other
/// stream is linearly interpolated at those timestamps and either added to the acceleration
/// (``Role/gravity``: iOS's `Gravity.csv` completes `Accelerometer.csv`) or becomes the
/// gyroscope (``Role/gyroscope``). Before a stream's first sample and after its last, its first or
/// last value is held, and counted as `held-value` when the accelerometer sample is a sample period
/// of that stream or more away from it (the interval between its first two samples, or its last
/// two): the few milliseconds by which the sensors of a phone start and stop apart are no defect.
/// Streamed: each stream is read in order with two
/// samples of look-ahead, so memory does not grow with the recording.
final class AlignedRows: RecordingRowReader {
    /// What a secondary stream contributes.
    enum Role {
        /// Added to the acceleration (its values in the samples' `accel`).
        case gravity
        /// The angular rate (its values in the samples' `accel`, as its reader lays them out).
        case gyroscope
    }

    private final class Stream {
        let role: Role
        let reader: any RecordingRowReader
        let name: String
        var buffer: [Sample] = []
        var labels: [String?] = []
        var position = 0
        var exhausted = false
        var previous: Sample?
        var next: Sample?
        var started = false
        var heldBefore = 0
        var heldAfter = 0
        /// The interval between the last two samples passed, ns.
        var lastInterval: Int64?

        init(role: Role, reader: any RecordingRowReader, name: String) {
            self.role = role
            self.reader = reader
            self.name = name
        }

        func pull() throws -> Sample? {
            if position == buffer.count {
                guard !exhausted else { return nil }
                buffer.removeAll(keepingCapacity: true)
                labels.removeAll(keepingCapacity: true)
                position = 0
                if try reader.read(into: &buffer, labels: &labels, maxSamples: 4096) == 0 {
                    exhausted = true
                    return nil
                }
            }
            position += 1
            return buffer[position - 1]
        }

        /// The stream's value at `t` (see the type's rule).
        func value(at t: Int64) throws -> Vector3 {
            if !started {
                started = true
                next = try pull()
                guard next != nil else {
                    throw RecordingError(file: name, line: max(reader.lineNumber, 1), column: 1, problem: "has no samples (it is needed to complete the accelerometer's)")
                }
            }
            while let n = next, n.timestamp <= t {
                if let p = previous { lastInterval = n.timestamp &- p.timestamp }
                previous = n
                next = try pull()
            }
            switch (previous, next) {
            case (nil, let n?):
                // The stream's period: its first interval (the sample after `n`, when buffered).
                let period = position < buffer.count ? buffer[position].timestamp &- n.timestamp : nil
                if period.map({ n.timestamp &- t >= $0 }) ?? true { heldBefore += 1 }
                return n.accel
            case (let p?, nil):
                if p.timestamp != t, lastInterval.map({ t &- p.timestamp >= $0 }) ?? true { heldAfter += 1 }
                return p.accel
            case (let p?, let n?):
                let w = Double(t - p.timestamp) / Double(n.timestamp - p.timestamp)
                let a = p.accel, b = n.accel
                return Vector3(a.x + (b.x - a.x) * w, a.y + (b.y - a.y) * w, a.z + (b.z - a.z) * w)
            case (nil, nil):
                return .zero  // unreachable: a stream with no samples was refused above
            }
        }
    }

    let header: RecordingHeader
    private let primary: any RecordingRowReader
    private let streams: [Stream]
    private var chunk: [Sample] = []
    private var chunkLabels: [String?] = []

    /// Aligns `secondaries` to `primary`'s samples; `header` describes the result.
    init(primary: any RecordingRowReader, secondaries: [(role: Role, reader: any RecordingRowReader, name: String)], header: RecordingHeader) {
        self.primary = primary
        self.streams = secondaries.map { Stream(role: $0.role, reader: $0.reader, name: $0.name) }
        self.header = header
    }

    var warnings: [RecordingWarning] {
        var t = RecordingWarningTally()
        for w in primary.warnings { t.add(w) }
        for s in streams {
            for w in s.reader.warnings { t.add(w) }
            for (count, which) in [(s.heldBefore, "first"), (s.heldAfter, "last")] where count > 0 {
                var w = RecordingWarning(kind: .heldValue, file: s.name, line: which == "first" ? 2 : max(s.reader.lineNumber, 1),
                                         message: "its \(which) value was held for accelerometer samples \(which == "first" ? "before it starts" : "after it ends")")
                w.count = count
                t.add(w)
            }
        }
        return t.warnings
    }
    var lineNumber: Int { primary.lineNumber }
    var bytesRead: Int { primary.bytesRead + streams.reduce(0) { $0 + $1.reader.bytesRead } }

    func read(into samples: inout [Sample], labels: inout [String?], maxSamples: Int) throws -> Int {
        chunk.removeAll(keepingCapacity: true)
        chunkLabels.removeAll(keepingCapacity: true)
        let n = try primary.read(into: &chunk, labels: &chunkLabels, maxSamples: maxSamples)
        for var s in chunk {
            for stream in streams {
                let v = try stream.value(at: s.timestamp)
                switch stream.role {
                case .gravity:
                    s.accel = Vector3(s.accel.x + v.x, s.accel.y + v.y, s.accel.z + v.z)
                    for k in 0..<3 where !InputLimits.acceleration.contains(s.accel[k]) {
                        throw RecordingError(file: stream.name, line: max(stream.reader.lineNumber, 1), column: 1,
                                             problem: InputLimits.acceleration.problem(s.accel[k].compactText) + " (acceleration plus gravity)")
                    }
                case .gyroscope: s.gyro = v
                }
            }
            samples.append(s)
        }
        if header.hasLabels { labels.append(contentsOf: chunkLabels) }
        return n
    }

    func stop() {
        primary.stop()
        for s in streams { s.reader.stop() }
    }
}
