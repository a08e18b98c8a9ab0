/// Where each enabled scan element sits inside one scan, computed with the kernel's rule
/// (`iio_compute_scan_bytes`): elements in scan-index order, each aligned to its own length,
/// the scan padded to a multiple of the largest element. Libiio-free.
public struct ScanLayout: Hashable, Sendable {
    /// One element of the scan.
    public struct Element: Hashable, Sendable {
        /// Channel id (`accel_x`, `timestamp`).
        public var id: String
        /// Scan index.
        public var index: Int
        /// Storage format.
        public var format: ScanElementFormat
        /// Byte offset inside the scan.
        public var offset: Int
    }

    /// Elements in scan order.
    public private(set) var elements: [Element]
    /// Bytes per scan.
    public private(set) var scanBytes: Int

    /// Lays out the enabled channels `(id, index, format)`.
    /// - Complexity: O(n log n) in the number of channels.
    public init(channels: [(id: String, index: Int, format: ScanElementFormat)]) {
        var offset = 0
        var largest = 1
        var out: [Element] = []
        for c in channels.sorted(by: { $0.index < $1.index }) {
            let length = c.format.length
            offset = (offset + length - 1) / length * length
            out.append(Element(id: c.id, index: c.index, format: c.format, offset: offset))
            offset += length
            largest = max(largest, length)
        }
        elements = out
        scanBytes = out.isEmpty ? 0 : (offset + largest - 1) / largest * largest
    }

    /// The element for a channel id.
    public func element(_ id: String) -> Element? { elements.first { $0.id == id } }
}
