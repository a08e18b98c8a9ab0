/// The bounds that keep a compressed or spooled input from exhausting the machine
/// (docs/bad-input.md, "Archives, spools and bombs"), without a fixed cap on the size of the
/// recording itself (a week of data reads):
///
/// - ``maxSpool``: the most bytes copied into the temporary spool file (a zip archive, or a
///   recording read several times, arriving on a pipe: ``SpooledFile``). The bound used is also
///   never more than the free space of the spool's folder less ``freeSpaceMargin``.
/// - ``maxRatio``: the most decompressed bytes per compressed byte a gzip stream or a zip member
///   may expand to (declared by a zip's directory, or met while reading), once it has produced
///   ``ratioGrace`` bytes. Real recordings compress 3:1 to 30:1; deflate cannot exceed about 1032:1.
public struct ArchiveLimits: Sendable, Equatable {
    /// Most bytes spooled into a temporary file (`--max-spool`).
    public var maxSpool: Int64
    /// Most decompressed bytes per compressed byte (`--max-ratio`).
    public var maxRatio: Int

    /// 2 GiB: fits a board's SD card beside its system and recordings (`--max-spool`'s default).
    public static let defaultMaxSpool: Int64 = 2 << 30
    /// 1000:1 (`--max-ratio`'s default).
    public static let defaultMaxRatio = 1000
    /// Space left free in the spool's folder: 256 MiB (at most 5% of its file system's size).
    public static let freeSpaceMargin: Int64 = 256 << 20
    /// Decompressed bytes produced before the ratio is checked (a small file's header alone may
    /// compress far): 1 MiB.
    public static let ratioGrace = 1 << 20

    /// Bounds, by default ``defaultMaxSpool`` and ``defaultMaxRatio``.
    public init(maxSpool: Int64 = ArchiveLimits.defaultMaxSpool, maxRatio: Int = ArchiveLimits.defaultMaxRatio) {
        self.maxSpool = max(0, maxSpool)
        self.maxRatio = max(1, maxRatio)
    }

    /// What a spool may take of a file system with `free` bytes available of `total`: the free
    /// space less ``freeSpaceMargin``, or less 5% of `total` when that is smaller; never negative.
    static func room(free: Int64, total: Int64) -> Int64 {
        max(0, free - min(freeSpaceMargin, max(0, total) / 20))
    }

    /// Whether `produced` bytes decompressed from `compressed` pass ``maxRatio`` (after ``ratioGrace``).
    func exceedsRatio(produced: Int, compressed: Int) -> Bool {
        guard produced > Self.ratioGrace else { return false }
        let bound = max(compressed, 1).multipliedReportingOverflow(by: maxRatio)
        return !bound.overflow && produced > bound.partialValue
    }

    /// The message for a stream that expands past ``maxRatio``.
    func ratioProblem(produced: Int, compressed: Int, declared: Bool = false) -> String {
        "\(declared ? "declares" : "expands to") \(produced) bytes from \(compressed) compressed (more than \(maxRatio):1): a decompression bomb? (real recordings compress far less; '--max-ratio N' raises the bound)"
    }
}
