/// Reading a whole (small) file.
extension FileDescriptor {
    /// Reads from the current offset to the end of the file, in 64 KiB reads.
    /// - Complexity: O(file size).
    public func readToEnd() throws(SystemError) -> [UInt8] {
        var out: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try read(into: chunk.baseAddress!, count: chunk.count)
            if n == 0 { return out }
            out += chunk[0..<n]
        }
    }
}
