#if canImport(Glibc)
import Glibc
#endif
import CUHID
import MotionSystem

/// An event read from /dev/uhid.
public enum UHIDEvent: Equatable, Sendable {
    /// UHID_START: the kernel bound a driver; input may be sent.
    case start
    /// UHID_STOP: the driver was unbound.
    case stop
    /// UHID_OPEN / UHID_CLOSE: a user opened/closed the HID device.
    case open, close
    /// A GET_REPORT or SET_REPORT request for the hub.
    case request(HubEvent)
    /// Any other event type (ignored).
    case other(UInt32)
}

/// One virtual HID device on /dev/uhid. Owns the file descriptor (closed on deinit, which also
/// destroys the device) and one event buffer of `sizeof(struct uhid_event)` built and parsed
/// through CUHID.
public final class UHIDDevice {
    /// The device path.
    public let path: String
    /// The open file descriptor (non-blocking).
    public let fd: Int32
    private let buffer: UnsafeMutableRawPointer
    private let size: Int
    private var created = false

    /// Opens `path` (`open(2)` O_RDWR | O_NONBLOCK | O_CLOEXEC).
    public init(path: String = "/dev/uhid") throws(SystemError) {
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(.current, call: "open", subject: path) }
        self.path = path
        self.fd = fd
        size = cuhid_event_size()
        buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
    }

    deinit {
        if created { cuhid_build_destroy(buffer); _ = Glibc.write(fd, buffer, size) }
        Glibc.close(fd)
        buffer.deallocate()
    }

    /// Creates the HID device (UHID_CREATE2, `cuhid_build_create2`). Bus is BUS_VIRTUAL.
    public func create(name: String, descriptor: [UInt8], vendor: UInt32 = 0x1209, product: UInt32 = 0x0001) throws(SystemError) {
        let ok = descriptor.withUnsafeBufferPointer { d in
            cuhid_build_create2(buffer, name, d.baseAddress, d.count, 0x06 /* BUS_VIRTUAL */, vendor, product, 1)
        }
        guard ok == 0 else { throw SystemError(.invalidArgument, call: "UHID_CREATE2 (descriptor too long)", subject: path) }
        try send("write(UHID_CREATE2)")
        created = true
    }

    /// Sends one input report (UHID_INPUT2, `cuhid_build_input2`).
    public func sendInput(_ report: [UInt8]) throws(SystemError) {
        let ok = report.withUnsafeBufferPointer { cuhid_build_input2(buffer, $0.baseAddress, $0.count) }
        guard ok == 0 else { throw SystemError(.invalidArgument, call: "UHID_INPUT2 (report too long)", subject: path) }
        try send("write(UHID_INPUT2)")
    }

    /// Answers a GET_REPORT (UHID_GET_REPORT_REPLY, `cuhid_build_get_report_reply`).
    public func replyGetReport(requestID: UInt32, error: UInt16, data: [UInt8]) throws(SystemError) {
        let ok = data.withUnsafeBufferPointer { cuhid_build_get_report_reply(buffer, requestID, error, $0.baseAddress, $0.count) }
        guard ok == 0 else { throw SystemError(.invalidArgument, call: "UHID_GET_REPORT_REPLY (report too long)", subject: path) }
        try send("write(UHID_GET_REPORT_REPLY)")
    }

    /// Answers a SET_REPORT (UHID_SET_REPORT_REPLY, `cuhid_build_set_report_reply`).
    public func replySetReport(requestID: UInt32, error: UInt16) throws(SystemError) {
        cuhid_build_set_report_reply(buffer, requestID, error)
        try send("write(UHID_SET_REPORT_REPLY)")
    }

    /// Removes the HID device (UHID_DESTROY). Idempotent.
    public func destroy() throws(SystemError) {
        guard created else { return }
        created = false
        cuhid_build_destroy(buffer)
        try send("write(UHID_DESTROY)")
    }

    /// Reads one event, or nil when none is pending (EAGAIN).
    public func readEvent() throws(SystemError) -> UHIDEvent? {
        while true {
            let n = Glibc.read(fd, buffer, size)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return nil }
                throw SystemError(.current, call: "read", subject: path)
            }
            guard n >= 4 else { throw SystemError(.ioError, call: "read (short event)", subject: path) }
            break
        }
        let type = cuhid_event_type(buffer)
        switch Int(type) {
        case Int(CUHID_START.rawValue): return .start
        case Int(CUHID_STOP.rawValue): return .stop
        case Int(CUHID_OPEN.rawValue): return .open
        case Int(CUHID_CLOSE.rawValue): return .close
        case Int(CUHID_GET_REPORT.rawValue):
            return .request(.getReport(requestID: cuhid_request_id(buffer), reportID: cuhid_request_rnum(buffer),
                                       type: HIDReportType(rawValue: cuhid_request_rtype(buffer)) ?? .output))
        case Int(CUHID_SET_REPORT.rawValue):
            var len = 0
            let p = cuhid_event_data(buffer, &len)
            let data = p.map { Array(UnsafeBufferPointer(start: $0, count: len)) } ?? []
            return .request(.setReport(requestID: cuhid_request_id(buffer), reportID: cuhid_request_rnum(buffer),
                                       type: HIDReportType(rawValue: cuhid_request_rtype(buffer)) ?? .output, data: data))
        default:
            return .other(type)
        }
    }

    private func send(_ call: String) throws(SystemError) {
        while true {
            let n = Glibc.write(fd, buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n == size else { throw SystemError(n < 0 ? .current : .ioError, call: call, subject: path) }
            return
        }
    }
}
