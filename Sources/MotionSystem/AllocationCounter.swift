#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The heap allocations counted by the `alloc-count` shim (`scripts/alloc-count/alloc-count.c`,
/// built with gcc and loaded with `LD_PRELOAD`), when it is loaded: what `motionbatch capture
/// benchmark` reports as allocations per wake-up. The shim exports `alloc_count_snapshot`, looked
/// up once with `dlsym`; without the shim there is nothing to read (``read()`` is nil).
/// Reading allocates nothing.
public enum AllocationCounter {
    /// The shim's counts (process-wide, every thread, since the process started).
    public struct Counts: Hashable, Sendable {
        /// `malloc`, `calloc`, aligned allocations and `realloc` of nothing.
        public var allocations: UInt64
        /// `realloc` of a block (a growth or a move).
        public var reallocations: UInt64
        /// `free` of a block.
        public var frees: UInt64
        /// Bytes asked for by the allocations and reallocations.
        public var bytes: UInt64

        /// Creates counts.
        public init(allocations: UInt64, reallocations: UInt64, frees: UInt64, bytes: UInt64) {
            self.allocations = allocations
            self.reallocations = reallocations
            self.frees = frees
            self.bytes = bytes
        }

        /// The counts from `earlier` to these.
        public func since(_ earlier: Counts) -> Counts {
            Counts(allocations: allocations &- earlier.allocations, reallocations: reallocations &- earlier.reallocations,
                   frees: frees &- earlier.frees, bytes: bytes &- earlier.bytes)
        }
    }

    private typealias Snapshot = @convention(c) (UnsafeMutablePointer<UInt64>) -> Void

    /// The shim's `alloc_count_snapshot`, nil when it is not loaded (`dlopen(NULL)` + `dlsym`).
    private static let snapshot: Snapshot? = {
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "alloc_count_snapshot") else { return nil }
        return unsafeBitCast(symbol, to: Snapshot.self)
    }()

    /// Whether the shim is loaded.
    public static var isLoaded: Bool { snapshot != nil }

    /// The counts now, nil without the shim.
    public static func read() -> Counts? {
        guard let snapshot else { return nil }
        var values: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &values) { snapshot($0.baseAddress!.assumingMemoryBound(to: UInt64.self)) }
        return Counts(allocations: values.0, reallocations: values.1, frees: values.2, bytes: values.3)
    }
}
