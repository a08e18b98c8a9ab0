/// A binary device reader (GT3X, CWA) that decodes a buffer's worth of samples at a time into
/// ``pending`` and hands them out in the pieces its caller asks for.
protocol DecodingSampleSource: AnyObject {
    /// Decoded samples not yet handed out.
    var pending: DecodedSamples { get set }
    /// Whether the input is exhausted (nothing more to decode).
    var finished: Bool { get }
    /// Decodes the next buffer's worth into ``pending`` (possibly none), or sets ``finished``.
    func refill() throws
}

extension DecodingSampleSource {
    /// Up to `maxSamples` decoded samples and their lines; 0 at the end.
    func readDecoded(into samples: inout [Sample], lines: inout [Int], maxSamples: Int) throws -> Int {
        while pending.drained() {
            guard !finished else { return 0 }
            try refill()
        }
        return pending.take(into: &samples, lines: &lines, maxSamples: maxSamples)
    }

    /// Calls `body` with the pending samples and their lines, to append to (moved out of
    /// ``pending`` for the call: the two arrays are modified at once).
    func appendingPending<T>(_ body: (inout [Sample], inout [Int]) throws -> T) rethrows -> T {
        var p = DecodedSamples()
        swap(&p, &pending)
        defer { swap(&p, &pending) }
        return try body(&p.samples, &p.lines)
    }
}
