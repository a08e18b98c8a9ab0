/// What a full hub FIFO does with one more sample.
public enum OverflowPolicy: String, Sendable, Codable, CaseIterable {
    /// Discard the oldest queued sample to make room (the newest data survives; ring-buffer FIFOs).
    case dropOldest = "drop-oldest"
    /// Discard the incoming sample (the queued data survives; stop-when-full FIFOs).
    case dropNewest = "drop-newest"
}

/// A bounded first-in first-out queue with an overflow policy: the model of a sensor hub's
/// hardware FIFO. Storage is one contiguous ring.
public struct SampleFIFO<Element: Sendable>: Sendable {
    private var storage: [Element?]
    private var head = 0
    /// Number of queued elements.
    public private(set) var count = 0
    /// Maximum number of queued elements.
    public let capacity: Int
    /// What happens on overflow.
    public let policy: OverflowPolicy

    /// Creates an empty FIFO.
    /// - Precondition: `capacity >= 1`.
    public init(capacity: Int, policy: OverflowPolicy) {
        precondition(capacity >= 1, "FIFO capacity must be at least 1")
        self.capacity = capacity
        self.policy = policy
        storage = Array(repeating: nil, count: capacity)
    }

    /// Whether nothing is queued.
    public var isEmpty: Bool { count == 0 }

    /// Queues `e`. Returns true when a sample was dropped (the oldest or `e` itself, by policy).
    /// - Complexity: O(1).
    @discardableResult
    public mutating func push(_ e: Element) -> Bool {
        if count < capacity {
            storage[(head + count) % capacity] = e
            count += 1
            return false
        }
        switch policy {
        case .dropNewest:
            return true
        case .dropOldest:
            storage[head] = e
            head = (head + 1) % capacity
            return true
        }
    }

    /// Removes and returns every queued element, oldest first.
    /// - Complexity: O(count).
    public mutating func drain() -> [Element] {
        var out: [Element] = []
        out.reserveCapacity(count)
        for k in 0..<count {
            out.append(storage[(head + k) % capacity]!)
            storage[(head + k) % capacity] = nil
        }
        head = 0
        count = 0
        return out
    }
}
