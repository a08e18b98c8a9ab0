#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileDescriptor {
    /// The identity of the open file (`fstat(2)`): what the descriptor reads or writes, whatever
    /// name it was opened by (standard input redirected from a file has that file's identity).
    public func identity() throws(SystemError) -> FileIdentity {
        FileIdentity(try status())
    }

    /// Whether the open file is a regular file (`S_IFREG`); false for pipes, FIFOs, terminals,
    /// character devices and sockets, which cannot be `fsync`ed or renamed over.
    public var isRegularFile: Bool {
        guard let st = try? status() else { return false }
        return (st.st_mode & S_IFMT) == S_IFREG
    }
}
