import MotionCore
import MotionSystem

/// Measures the CPU cost of the capture path after the kernel read — demux and conversion
/// (``ScanDecoder``), timestamp repair and gap detection — on synthetic hid-sensor scans
/// (3 x `le:s32/32>>0` + `le:s64/64>>0` timestamp, 24 bytes), delivered in batches of a given size.
public enum DecodeBenchmark {
    /// One measurement.
    public struct Result: Sendable {
        /// Scans per batch.
        public var batch: Int
        /// Scans processed.
        public var samples: Int
        /// Thread CPU time, ns (`CLOCK_THREAD_CPUTIME_ID`).
        public var cpuNanoseconds: Int64
        /// CPU ns per sample.
        public var nanosecondsPerSample: Double { Double(cpuNanoseconds) / Double(max(1, samples)) }
        /// Sum of all converted values (keeps the work observable; compared across batch sizes).
        public var checksum: Double
    }

    /// The hid-sensor accel layout used by the benchmark.
    public static var layout: ScanLayout {
        let s32 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 32, storageBits: 32, shift: 0)
        let s64 = ScanElementFormat(isBigEndian: false, isSigned: true, bits: 64, storageBits: 64, shift: 0)
        return ScanLayout(channels: [("accel_x", 0, s32), ("accel_y", 1, s32), ("accel_z", 2, s32), ("timestamp", 3, s64)])
    }

    /// `count` scans at 100 Hz with a varying signal, as the kernel would write them.
    public static func scans(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 24)
        for i in 0..<count {
            for axis in 0..<3 {
                let v = Int32((i * 37 + axis * 1000) % 20000 - 10000)
                withUnsafeBytes(of: v.littleEndian) { bytes += $0 }
            }
            bytes += [0, 0, 0, 0]
            withUnsafeBytes(of: (Int64(i) * 10_000_000).littleEndian) { bytes += $0 }
        }
        return bytes
    }

    /// Runs the path over `samples` scans in batches of `batch`.
    public static func run(samples: Int, batch: Int) -> Result {
        let data = scans(samples)
        let layout = self.layout
        let decoder = ScanDecoder(layout: layout) { _ in (scale: 0.00980665, offset: 0) }
        var repair = TimestampRepair(period: 10_000_000, expectedBurst: batch > 1 ? batch : nil)
        var gaps = GapDetector(period: 10_000_000)
        var checksum = 0.0
        var out: [Sample] = []
        out.reserveCapacity(batch)
        let start = threadCPU()
        data.withUnsafeBytes { all in
            var offset = 0
            let step = layout.scanBytes * batch
            while offset < all.count {
                let end = min(all.count, offset + step)
                out.removeAll(keepingCapacity: true)
                decoder.decode(UnsafeRawBufferPointer(rebasing: all[offset..<end]), into: &out)
                for s in repair.push(out) {
                    _ = gaps.push(s.timestamp)
                    checksum += s.accel.x + s.accel.y + s.accel.z
                }
                offset = end
            }
            for s in repair.finish() { checksum += s.accel.x + s.accel.y + s.accel.z }
        }
        return Result(batch: batch, samples: samples, cpuNanoseconds: threadCPU() - start, checksum: checksum)
    }

    static func threadCPU() -> Int64 { MonotonicClock.threadCPUNanoseconds() }
}
