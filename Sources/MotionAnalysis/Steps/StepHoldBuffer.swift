/// Candidate steps held until a regular run confirms them: a fixed-capacity FIFO stored inline
/// (no allocation), oldest first.
struct StepHoldBuffer: Sendable {
    /// Maximum number of held candidates.
    static let capacity = 16
    private var times = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0),
                         Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
    private var amps = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    private var start = 0
    /// Number of held candidates.
    private(set) var count = 0

    /// Timestamp of the i-th oldest candidate.
    @inline(__always)
    func time(_ i: Int) -> Int64 {
        withUnsafeBytes(of: times) { $0.load(fromByteOffset: ((start + i) & 15) * 8, as: Int64.self) }
    }

    /// Swing of the i-th oldest candidate.
    @inline(__always)
    func amplitude(_ i: Int) -> Double {
        withUnsafeBytes(of: amps) { $0.load(fromByteOffset: ((start + i) & 15) * 8, as: Double.self) }
    }

    /// Appends a candidate, dropping the oldest when full.
    mutating func append(time: Int64, amplitude: Double) {
        if count == Self.capacity { removeFirst() }
        let slot = (start + count) & 15
        withUnsafeMutableBytes(of: &times) { $0.storeBytes(of: time, toByteOffset: slot * 8, as: Int64.self) }
        withUnsafeMutableBytes(of: &amps) { $0.storeBytes(of: amplitude, toByteOffset: slot * 8, as: Double.self) }
        count += 1
    }

    /// Drops the oldest candidate.
    mutating func removeFirst() {
        precondition(count > 0)
        start = (start + 1) & 15
        count -= 1
    }

    /// Drops every candidate.
    mutating func removeAll() { start = 0; count = 0 }

    /// The median interval (ns) between consecutive candidates among the newest `k` (2 ≤ k ≤ count).
    /// - Complexity: O(k²) with k ≤ 16 (insertion sort in inline storage, no allocation).
    func medianInterval(ofLast k: Int) -> Double {
        precondition(k >= 2 && k <= count)
        var sorted = (Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0),
                      Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0), Int64(0))
        let m = k - 1
        return withUnsafeMutableBytes(of: &sorted) { raw -> Double in
            let p = raw.bindMemory(to: Int64.self)
            let first = count - k
            for n in 0..<m {
                let v = time(first + n + 1) - time(first + n)
                var j = n - 1
                while j >= 0 && p[j] > v { p[j + 1] = p[j]; j -= 1 }
                p[j + 1] = v
            }
            return m % 2 == 1 ? Double(p[m / 2]) : 0.5 * Double(p[m / 2 - 1] + p[m / 2])
        }
    }
}
