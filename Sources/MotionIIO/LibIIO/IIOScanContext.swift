import CLibIIO
import MotionSystem
#if canImport(Glibc)
import Glibc
#endif

/// Lists the IIO contexts reachable from this machine, as `iio_info -s` does (wraps
/// `iio_create_scan_context`, `iio_scan_context_get_info_list`, `iio_context_info_get_uri`,
/// `iio_context_info_get_description`, `iio_context_info_list_free`, `iio_scan_context_destroy`).
/// libiio 0.24 scans the backends it was built with: `local` (this machine's sysfs) and `usb`
/// (devices running iiod over USB); network discovery (`ip`) needs libiio's DNS-SD support and a
/// running avahi-daemon, and finds nothing without them.
public enum IIOScanContext {
    /// One reachable context.
    public struct Entry: Hashable, Sendable {
        /// The URI to open it with (`local:`, `usb:1.2.5`, `ip:192.168.2.1`).
        public var uri: String
        /// libiio's description (devices and their names, or the USB product).
        public var description: String
    }

    /// Scans `backends` (comma-separated libiio backend names; nil: every backend libiio has).
    /// - Throws: ``SystemError`` when the scan cannot be created or fails.
    public static func scan(backends: String? = nil) throws(SystemError) -> [Entry] {
        errno = 0
        let ctx = try LibIIO.check(iio_create_scan_context(backends, 0), "iio_create_scan_context", subject: backends ?? "all backends")
        defer { iio_scan_context_destroy(ctx) }
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let n = try LibIIO.check(iio_scan_context_get_info_list(ctx, &list), "iio_scan_context_get_info_list", subject: backends ?? "all backends")
        defer { if let list { iio_context_info_list_free(list) } }
        guard let list else { return [] }
        return (0..<n).compactMap { i in
            guard let info = list[i] else { return nil }
            return Entry(uri: String(cString: iio_context_info_get_uri(info)),
                         description: String(cString: iio_context_info_get_description(info)))
        }
    }
}
