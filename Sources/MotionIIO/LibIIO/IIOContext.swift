import CLibIIO
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// An IIO context (`struct iio_context`): the set of devices of one backend. Owns the handle and
/// destroys it (`iio_context_destroy`) when the last reference goes; the ``IIODevice``,
/// ``IIOChannel`` and ``IIOBuffer`` values derived from it keep it alive.
///
/// Not thread-safe (libiio's local backend does no locking): use one context per thread.
public final class IIOContext {
    /// The owned libiio handle.
    let handle: OpaquePointer
    /// The URI the context was created from (`local:`, `ip:host`, `xml:file`, or `xml-mem:`).
    public let uri: String

    /// Opens a context from a URI (wraps `iio_create_context_from_uri`): `local:` (the default,
    /// this machine's sysfs), `ip:host[:port]` (a board running iiod, port 30431 by default),
    /// `xml:FILE` (a saved description; attribute values are not available).
    ///
    /// An `ip:` context ignores SIGPIPE for the rest of the process first (``BrokenPipeSignal``):
    /// libiio sends to iiod without `MSG_NOSIGNAL`, so a connection iiod closed would otherwise
    /// end the process on libiio's next send instead of failing that call with `EPIPE`.
    /// - Throws: ``SystemError`` with the errno, e.g. `ENOENT` when there is no IIO subsystem.
    public init(uri: String = "local:") throws(SystemError) {
        if Self.isNetwork(uri: uri) { BrokenPipeSignal.ignore() }
        errno = 0
        let raw = iio_create_context_from_uri(uri)
        handle = try LibIIO.check(raw, "iio_create_context_from_uri", subject: uri)
        self.uri = uri
    }

    /// Creates a context from an XML description held in memory (wraps `iio_create_xml_context_mem`).
    /// The XML backend knows the structure (devices, channels, scan formats, attribute names) but
    /// cannot read attribute values (reads fail with `ENOSYS`).
    public init(xml: String) throws(SystemError) {
        errno = 0
        var text = xml
        let raw = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                iio_create_xml_context_mem(chars.baseAddress, chars.count)
            }
        }
        handle = try LibIIO.check(raw, "iio_create_xml_context_mem", subject: "xml")
        uri = "xml-mem:"
    }

    deinit { iio_context_destroy(handle) }

    /// Whether `uri` names libiio's network backend (`ip:`, case as libiio compares it).
    static func isNetwork(uri: String) -> Bool { uri.hasPrefix("ip:") }

    /// The backend name (`local`, `network`, `xml`) (wraps `iio_context_get_name`).
    public var backendName: String { String(cString: iio_context_get_name(handle)) }

    /// The context's description (wraps `iio_context_get_description`).
    public var contextDescription: String { String(cString: iio_context_get_description(handle)) }

    /// Whether this context is backed by a description only (no attribute values, no buffers).
    public var isXML: Bool { backendName == "xml" }

    /// Whether this context is the local sysfs backend (the only one with a buffer poll fd).
    public var isLocal: Bool { backendName == "local" }

    /// Every device, in libiio's order (wraps `iio_context_get_devices_count`/`iio_context_get_device`).
    public var devices: [IIODevice] {
        let n = iio_context_get_devices_count(handle)
        return (0..<n).compactMap { i in iio_context_get_device(handle, i).map { IIODevice(context: self, handle: $0) } }
    }

    /// The device with this id (`iio:device0`), name or label (wraps `iio_context_find_device`).
    public func device(named name: String) -> IIODevice? {
        iio_context_find_device(handle, name).map { IIODevice(context: self, handle: $0) }
    }

    /// The timeout asked for context operations (`-T`), ms, when the user gave one: a capture
    /// uses at least this for its refills (and at least its batch latency's need).
    public var operationTimeoutMs: UInt32?

    /// Sets the timeout of blocking operations, milliseconds; 0 waits forever
    /// (wraps `iio_context_set_timeout`). libiio's default (1000 ms local) fails any longer batch.
    public func setTimeout(milliseconds: UInt32) throws(SystemError) {
        try LibIIO.check(iio_context_set_timeout(handle, milliseconds), "iio_context_set_timeout")
    }

    /// The context as XML (wraps `iio_context_get_xml`).
    public var xml: String { String(cString: iio_context_get_xml(handle)) }
}
