/// Samples a binary device reader decoded ahead of its caller (a buffer's worth), with the
/// record or block each came from, handed out in pieces of any size.
struct DecodedSamples {
    /// Decoded, not yet handed out from ``position``.
    var samples: [Sample] = []
    /// The record or block number of each sample.
    var lines: [Int] = []
    private var position = 0

    /// Whether every decoded sample was handed out (then cleared, ready for the next decode).
    mutating func drained() -> Bool {
        guard position == samples.count else { return false }
        samples.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        position = 0
        return true
    }

    /// Appends up to `maxSamples` of them to `out` (and their lines to `outLines`).
    mutating func take(into out: inout [Sample], lines outLines: inout [Int], maxSamples: Int) -> Int {
        let take = min(maxSamples, samples.count - position)
        out.append(contentsOf: samples[position..<(position + take)])
        outLines.append(contentsOf: lines[position..<(position + take)])
        position += take
        return take
    }
}
