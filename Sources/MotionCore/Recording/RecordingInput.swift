#if canImport(Glibc)
import Glibc
#endif
import MotionSystem

/// Where ``RecordingReader`` reads a recording from.
public enum RecordingInput {
    /// A file by path (opened for reading), or a folder (an unzipped export).
    case path(String)
    /// An open byte source (a descriptor, memory, a decoder), named by its ``RecordingByteSource/name``.
    case source(any RecordingByteSource)

    /// Bytes in memory, named `name` in messages.
    public static func bytes(_ bytes: [UInt8], name: String) -> RecordingInput {
        .source(RecordingMemorySource(bytes, name: name))
    }

    /// The process's standard input (a duplicate of descriptor 0, so that closing the reader
    /// leaves it open), named `standard input` in messages. Its identity is the file behind it,
    /// when it is one (`< file`), so a command never writes over it.
    public static var standardInput: RecordingInput {
        let fd = dup(0)
        guard fd >= 0 else { return .path("/dev/stdin") }
        return .source(RecordingFileSource(file: FileDescriptor(adopting: fd, path: "standard input"), name: "standard input"))
    }

    /// A command-line argument: `-` is standard input, anything else a path (a file named `-`
    /// is `./-`).
    public static func argument(_ text: String) -> RecordingInput {
        text == "-" ? standardInput : .path(text)
    }

    /// The source to read.
    /// - Throws: ``SystemError`` when a path cannot be opened.
    func open() throws(SystemError) -> any RecordingByteSource {
        switch self {
        case .path(let p): return try RecordingFileSource(path: p)
        case .source(let s): return s
        }
    }
}
