import MotionSystem

/// Where ``RecordingReader`` reads a recording from.
public enum RecordingInput {
    /// A file by path (opened for reading; a directory is refused).
    case path(String)
    /// An open byte source (a descriptor, memory, a decoder), named by its ``RecordingByteSource/name``.
    case source(any RecordingByteSource)

    /// Bytes in memory, named `name` in messages.
    public static func bytes(_ bytes: [UInt8], name: String) -> RecordingInput {
        .source(RecordingMemorySource(bytes, name: name))
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
