#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import MotionSystem

/// Produces the parsed blocks of a recording in file order, on the caller's thread or, for files
/// of more than one block, on worker threads that parse the next blocks while the caller consumes
/// the current one.
///
/// The splitter (file reads, block boundaries) is serialised by a lock; each worker parses the
/// block it was given into its own slot; the caller takes slot `k % slots` for block `k`, so blocks
/// come out in file order whatever the threads' timing (results are deterministic). At most
/// `slots` parsed blocks wait ahead of the caller, so memory stays bounded.
final class RecordingBlockPipeline: @unchecked Sendable {
    /// One parsed block waiting for the caller.
    private final class Slot: @unchecked Sendable {
        var result: RecordingBlockResult?
        let ready = DispatchSemaphore(value: 0)
    }

    private let splitter: RecordingBlockSplitter
    private let parser: RecordingRowParser
    private let blockSize: Int
    private let threadCount: Int
    /// The caller's block (inline mode).
    private var inlineBlock: RecordingByteBlock?

    // Shared with workers.
    private let splitterLock = DispatchSemaphore(value: 1)  // always released at 1
    private var nextIndex = 0        // guarded by splitterLock
    private var cancelled = false    // guarded by splitterLock
    private var splitterDone = false // guarded by splitterLock
    private let slots: [Slot]
    private let freeSlots: DispatchSemaphore

    // Caller only.
    private var workersStarted = false
    private var threadsUnavailable = false
    private var runningThreads = 0
    private var consumed = 0

    /// - Parameters:
    ///   - threads: worker threads to use once the file turns out to be longer than one block
    ///     (1: parse everything on the caller's thread).
    init(splitter: RecordingBlockSplitter, parser: RecordingRowParser, blockSize: Int, threads: Int) {
        self.splitter = splitter
        self.parser = parser
        self.blockSize = blockSize
        self.threadCount = max(1, threads)
        let slotCount = 2 * max(1, threads)
        slots = (0..<slotCount).map { _ in Slot() }
        // Created at 0 and raised: libdispatch traps when a semaphore is released with a value
        // below the one it was created with, which a cancelled pipeline may leave.
        freeSlots = DispatchSemaphore(value: 0)
        for _ in 0..<slotCount { freeSlots.signal() }
    }

    /// The next block's result, in file order. After a terminal result (`torn`, `tooLong`, `end`,
    /// `ioError`) it returns `.end`.
    func next() -> RecordingBlockResult {
        defer { consumed += 1 }
        if !workersStarted {
            // Small files never start a thread: the first block is parsed here unless the file is
            // known to hold more than one block, in which case the workers start at once.
            if threadCount > 1, !threadsUnavailable, !splitter.isAtEnd,
               consumed > 0 || (splitter.bytesAhead ?? 0) > blockSize {
                startWorkers()
            }
            if !workersStarted {
                let block = inlineBlock ?? RecordingByteBlock(capacity: blockSize)
                inlineBlock = block
                nextIndex += 1
                return produce(into: block)
            }
        }
        let slot = slots[consumed % slots.count]
        slot.ready.wait()
        let result = slot.result ?? .end
        slot.result = nil
        freeSlots.signal()
        return result
    }

    /// Stops the workers (they finish the block at hand and exit). Idempotent.
    func shutdown() {
        guard workersStarted else { return }
        splitterLock.wait()
        let wasCancelled = cancelled
        cancelled = true
        splitterLock.signal()
        if !wasCancelled { for _ in 0..<runningThreads { freeSlots.signal() } }
    }

    deinit { shutdown() }

    private func produce(into block: RecordingByteBlock) -> RecordingBlockResult {
        let raw: RecordingBlockSplitter.Raw
        do { raw = try splitter.fill(block) } catch { return .ioError(error) }
        return Self.result(raw, block, parser)
    }

    private static func result(_ raw: RecordingBlockSplitter.Raw, _ block: RecordingByteBlock, _ parser: RecordingRowParser) -> RecordingBlockResult {
        switch raw {
        case .lines(let count): return .rows(parser.parse(block, count: count))
        case .torn(let count): return .torn(count: count)
        case .tooLong: return .tooLong
        case .end: return .end
        }
    }

    private func startWorkers() {
        var started = 0
        for _ in 0..<threadCount where WorkerThread.start({ [self] in work() }) { started += 1 }
        if started > 0 {
            workersStarted = true
            inlineBlock = nil
            runningThreads = started
        } else {
            threadsUnavailable = true
        }
    }

    /// A worker: take a free slot, cut the next block (under the lock), parse it, publish it.
    private func work() {
        let block = RecordingByteBlock(capacity: blockSize)
        // Fault its pages in now, in parallel with the other workers, rather than in `read(2)`
        // while holding the splitter lock.
        block.base.initialize(repeating: 0, count: blockSize)
        while true {
            freeSlots.wait()
            splitterLock.wait()
            if cancelled || splitterDone {
                splitterLock.signal()
                return
            }
            let index = nextIndex
            nextIndex += 1
            var raw: RecordingBlockSplitter.Raw = .end
            var ioError: (any Error)?
            do { raw = try splitter.fill(block) } catch { ioError = error }
            if ioError != nil || raw == .end || raw == .tooLong { splitterDone = true }
            if case .torn = raw { splitterDone = true }
            splitterLock.signal()
            let result = ioError.map { RecordingBlockResult.ioError($0) } ?? Self.result(raw, block, parser)
            let slot = slots[index % slots.count]
            slot.result = result
            slot.ready.signal()
        }
    }
}
