import MotionCore

extension FuzzTargets {
    /// The zip reader on its own (``ZipArchive``: end record, zip64 locator and record, central
    /// directory, local headers, stored and deflate member data, CRC-32 and size checks, the ratio
    /// bound), then the archive through ``RecordingReader`` (the export dialects' recognition).
    /// Any bytes give members that each read to their end or stop with a printable error naming
    /// the archive (or `ARCHIVE/MEMBER`) and, unless it is about the archive as a whole, a byte
    /// offset or a line; a member never yields more bytes than its directory entry declares, and
    /// reading stops within ``ArchiveLimits/ratioGrace`` past the ratio bound.
    @Sendable public static func zipArchive(_ data: [UInt8]) {
        let name = "fuzz.zip"
        func check(_ e: RecordingError) {
            FuzzInvariant.check(e.file == name || e.file.hasPrefix(name + "/"), "error without the archive: \(e)")
            FuzzInvariant.check(FuzzInvariant.isPrintableMessage(e.description), "error text not escaped: \(e.description.debugDescription)")
        }
        let archive: ZipArchive
        do {
            archive = try ZipArchive(bytes: RecordingMemorySource(data, name: name), name: name, identity: nil)
        } catch let e as RecordingError {
            FuzzInvariant.check(e.byteOffset != nil, "an archive refused without a byte offset: \(e)")
            check(e)
            return
        } catch {
            FuzzInvariant.check(false, "unexpected error type from memory: \(error)")
            return
        }
        // The largest a member may yield before the ratio bound stops it (16 KiB of input at most).
        let most = max(data.count, 1) * ArchiveLimits.defaultMaxRatio + ArchiveLimits.ratioGrace + (1 << 16)
        var buffer = [UInt8](repeating: 0, count: 4096)
        for member in archive.members.prefix(64) {
            do {
                let source = try archive.open(member)
                let declared = source.bytesRemaining
                var total = 0
                while true {
                    let n = try buffer.withUnsafeMutableBytes { b in try source.read(into: b.baseAddress!, count: b.count) }
                    if n == 0 { break }
                    total += n
                    FuzzInvariant.check(total <= most, "member \(member) yields past the ratio bound")
                }
                if let declared { FuzzInvariant.check(total == declared, "member \(member) read \(total) bytes, declared \(declared)") }
            } catch let e as RecordingError {
                check(e)
            } catch {
                FuzzInvariant.check(false, "unexpected error type from memory: \(error)")
            }
        }
        do {
            let reader = try RecordingReader(input: .bytes(data, name: name), options: RecordingReadOptions(threads: 1))
            while try reader.next(maxSamples: 4096) != nil {}
        } catch let e as RecordingError {
            check(e)
        } catch {
            FuzzInvariant.check(false, "unexpected error type from memory: \(error)")
        }
    }
}
