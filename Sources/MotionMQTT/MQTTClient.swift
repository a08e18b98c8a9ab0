import CMosquitto
#if canImport(Glibc)
import Glibc
#endif

/// The one owner of a libmosquitto client handle (`struct mosquitto *`), MQTT v5, driven
/// without threads: the caller runs ``step(timeoutMilliseconds:)`` (one `mosquitto_loop`) when
/// it is awake anyway, and reads what happened as ``Event``s (libmosquitto's callbacks are
/// collected, never run into the caller's code). Nothing here starts a thread or a timer, so an
/// idle connection costs no wake-ups beyond the caller's own.
public final class MQTTClient {
    /// How to connect.
    public struct Options: Sendable {
        /// The client id (the broker's key for a persistent session).
        public var clientID: String
        /// Start without the broker's stored session (false: a persistent session, as the collector's).
        public var cleanStart = true
        /// The user name.
        public var user: String?
        /// The password.
        public var password: String?
        /// The CA certificate file for TLS (`mqtts://`), nil for plain TCP.
        public var caFile: String?
        /// The last will: topic, payload, retained (QoS 1).
        public var will: (topic: String, payload: String, retain: Bool)?
        /// QoS 1 messages the broker may send before this client acknowledged them (MQTT v5
        /// Receive Maximum, 1...65535; nil: libmosquitto's 20). A collector taking many
        /// boards raises it, so that the broker does not queue (and, past its
        /// `max_queued_messages`, drop) while it writes a pass.
        public var receiveMaximum: Int?
        /// The largest packet this client takes (MQTT v5 Maximum Packet Size, sent in the CONNECT
        /// of ``connectKeepingSession(host:port:keepaliveSeconds:sessionExpirySeconds:)``; nil: no
        /// limit). The broker then never sends a larger one: it drops that message for this
        /// client (Mosquitto, silently) instead of making the client read it into memory.
        public var maximumPacketSize: Int?
        /// Creates options.
        public init(clientID: String) { self.clientID = clientID }
    }

    /// What libmosquitto reported.
    public enum Event: Sendable, Equatable {
        /// The broker accepted the connection.
        case connected
        /// The broker refused the connection (CONNACK reason code).
        case connectRefused(MQTTError)
        /// The connection ended (`expected`: we asked for it).
        case disconnected(MQTTError, expected: Bool)
        /// A PUBACK for `mid` (`refused`: a failure reason code, e.g. not authorized).
        case published(mid: Int32, refused: MQTTError?)
        /// A message arrived.
        case message(topic: String, payload: [UInt8], retained: Bool)
        /// A SUBACK for `mid` (granted QoS per filter; 128 and above: refused).
        case subscribed(mid: Int32, granted: [Int32])
    }

    private let handle: OpaquePointer
    private var events: [Event] = []
    private var disconnecting = false
    private let tls: Bool
    private let maximumPacketSize: Int?

    private static let initialized: Int32 = mosquitto_lib_init()

    /// Creates a client (`mosquitto_new`, protocol v5, credentials, TLS, will). `mosquitto_new`
    /// sets SIGPIPE to `SIG_IGN` for the process (libmosquitto writes with `write(2)`), as an `ip:`
    /// IIO context does (``BrokenPipeSignal``).
    /// - Throws: ``MQTTError`` when a setting is refused (e.g. an unreadable CA file).
    public init(_ options: Options) throws(MQTTError) {
        precondition(Self.initialized == 0, "mosquitto_lib_init failed")
        guard let h = mosquitto_new(options.clientID, options.cleanStart, nil) else {
            throw MQTTError.library(Int32(MOSQ_ERR_ERRNO.rawValue), "mosquitto_new")
        }
        handle = h
        tls = options.caFile != nil
        maximumPacketSize = options.maximumPacketSize
        mosquitto_user_data_set(h, Unmanaged.passUnretained(self).toOpaque())
        try check(mosquitto_int_option(h, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "mosquitto_int_option(PROTOCOL_VERSION)")
        if let r = options.receiveMaximum {
            try check(mosquitto_int_option(h, MOSQ_OPT_RECEIVE_MAXIMUM, Int32(min(max(r, 1), 65535))), "mosquitto_int_option(RECEIVE_MAXIMUM)")
        }
        if let u = options.user { try check(mosquitto_username_pw_set(h, u, options.password), "mosquitto_username_pw_set") }
        if let ca = options.caFile {
            guard access(ca, R_OK) == 0 else {
                throw MQTTError(kind: .tls, code: Int32(MOSQ_ERR_INVAL.rawValue), call: "mosquitto_tls_set", message: "cannot read the CA file \(ca)")
            }
            try check(mosquitto_tls_set(h, ca, nil, nil, nil, nil), "mosquitto_tls_set")
        }
        if let w = options.will {
            let bytes = Array(w.payload.utf8)
            try check(mosquitto_will_set(h, w.topic, Int32(bytes.count), bytes, 1, w.retain), "mosquitto_will_set")
        }
        mosquitto_connect_v5_callback_set(h) { _, obj, rc, _, _ in
            let me = MQTTClient.from(obj)
            me.events.append(rc == 0 ? .connected : .connectRefused(MQTTError.reason(rc, "CONNACK")))
        }
        mosquitto_disconnect_v5_callback_set(h) { _, obj, rc, _ in
            let me = MQTTClient.from(obj)
            let error = rc == 0 ? MQTTError(kind: .noConnection, code: 0, call: "disconnect", message: "disconnected")
                : rc > 0 && rc < 128 ? MQTTError.library(rc, "connection") : MQTTError.reason(rc, "DISCONNECT")
            me.events.append(.disconnected(error, expected: me.disconnecting))
        }
        mosquitto_publish_v5_callback_set(h) { _, obj, mid, rc, _ in
            MQTTClient.from(obj).events.append(.published(mid: mid, refused: rc >= 128 ? MQTTError.reason(rc, "PUBACK") : nil))
        }
        mosquitto_message_v5_callback_set(h) { _, obj, message, _ in
            guard let m = message?.pointee, let topic = m.topic else { return }
            let payload = m.payloadlen > 0 && m.payload != nil
                ? Array(UnsafeRawBufferPointer(start: m.payload, count: Int(m.payloadlen))) : []
            MQTTClient.from(obj).events.append(.message(topic: String(cString: topic), payload: payload, retained: m.retain))
        }
        mosquitto_subscribe_v5_callback_set(h) { _, obj, mid, count, granted, _ in
            let g = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
            MQTTClient.from(obj).events.append(.subscribed(mid: mid, granted: g))
        }
    }

    deinit { mosquitto_destroy(handle) }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MQTTClient {
        Unmanaged<MQTTClient>.fromOpaque(obj!).takeUnretainedValue()
    }

    private func check(_ rc: Int32, _ call: String) throws(MQTTError) {
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) { throw MQTTError.library(rc, call) }
    }

    /// Starts connecting without waiting for the broker (`mosquitto_connect_async`: the host
    /// name is resolved here; the TCP connection, TLS and CONNACK complete in ``step(timeoutMilliseconds:)``).
    /// - Parameter keepaliveSeconds: at least the caller's wake-up interval, so that the keepalive
    ///   never needs a wake-up of its own.
    /// - Throws: ``MQTTError``, e.g. `.unreachable` when the connection is refused at once.
    public func connect(host: String, port: Int, keepaliveSeconds: Int) throws(MQTTError) {
        disconnecting = false
        try check(mosquitto_connect_async(handle, host, Int32(port), Int32(keepaliveSeconds)), "mosquitto_connect_async(\(host):\(port))")
    }

    /// Connects and waits for the TCP (and TLS) connection (`mosquitto_connect_bind_v5`), asking
    /// the broker to keep the session (subscriptions and queued QoS 1 messages) for
    /// `sessionExpirySeconds` after a disconnection: the collector's persistent session (and the
    /// options' maximum packet size). The CONNACK arrives in ``step(timeoutMilliseconds:)``.
    /// - Throws: ``MQTTError``.
    public func connectKeepingSession(host: String, port: Int, keepaliveSeconds: Int, sessionExpirySeconds: UInt32) throws(MQTTError) {
        disconnecting = false
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        try check(mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), sessionExpirySeconds), "mosquitto_property_add_int32")
        if let m = maximumPacketSize {
            try check(mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), UInt32(clamping: max(m, 1))),
                      "mosquitto_property_add_int32(MAXIMUM_PACKET_SIZE)")
        }
        try check(mosquitto_connect_bind_v5(handle, host, Int32(port), Int32(keepaliveSeconds), nil, properties), "mosquitto_connect_bind_v5(\(host):\(port))")
    }

    /// One non-blocking (or bounded) pass of libmosquitto's loop: reads and writes what the
    /// socket allows, sends a PINGREQ when the keepalive is due.
    /// - Returns: what happened, in order.
    /// - Throws: ``MQTTError`` when the connection failed (also reported as `.disconnected`).
    public func step(timeoutMilliseconds: Int = 0) throws(MQTTError) -> [Event] {
        let fd = mosquitto_socket(handle)
        // mosquitto_loop waits with select(2), which refuses a descriptor at or above
        // FD_SETSIZE (MOSQ_ERR_INVAL): a process with many files or connections (a collector
        // with many boards' files open, the fleet benchmark) waits with poll(2) and runs the
        // loop's read, write and housekeeping steps itself.
        let rc = fd >= Self.selectLimit ? pollStep(fd, timeoutMilliseconds: timeoutMilliseconds) : mosquitto_loop(handle, Int32(timeoutMilliseconds), 1)
        let out = events
        events.removeAll()
        if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) {
            let e = MQTTError.library(rc, "mosquitto_loop")
            if out.contains(where: { if case .disconnected = $0 { true } else { false } }) { return out }
            throw e
        }
        return out
    }

    /// The descriptors select(2) takes (FD_SETSIZE).
    static let selectLimit: Int32 = 1024

    /// mosquitto_loop's steps with poll(2): wait for the socket (readable, or writable when
    /// something waits to be written), read, write, then the keepalive housekeeping.
    private func pollStep(_ fd: Int32, timeoutMilliseconds: Int) -> Int32 {
        var p = pollfd(fd: fd, events: Int16(POLLIN) | (mosquitto_want_write(handle) ? Int16(POLLOUT) : 0), revents: 0)
        let n = poll(&p, 1, Int32(timeoutMilliseconds))
        if n < 0 { return errno == EINTR ? Int32(MOSQ_ERR_SUCCESS.rawValue) : Int32(MOSQ_ERR_ERRNO.rawValue) }
        if tls || p.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            // TLS may hold decrypted data the socket no longer shows: always read (EAGAIN is no error).
            let rc = mosquitto_loop_read(handle, 1)
            if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) || mosquitto_socket(handle) < 0 { return rc }
        }
        if p.revents & Int16(POLLOUT) != 0 {
            let rc = mosquitto_loop_write(handle, 1)
            if rc != Int32(MOSQ_ERR_SUCCESS.rawValue) || mosquitto_socket(handle) < 0 { return rc }
        }
        return mosquitto_loop_misc(handle)
    }

    /// Queues a publication (`mosquitto_publish`, written at once when the socket allows).
    /// - Returns: the message id its acknowledgement will carry.
    public func publish(topic: String, payload: String, qos: Int32 = 1, retain: Bool = false) throws(MQTTError) -> Int32 {
        try publish(topic: topic, bytes: Array(payload.utf8), qos: qos, retain: retain)
    }

    /// Queues a publication of any bytes (`mosquitto_publish`).
    /// - Returns: the message id its acknowledgement will carry.
    public func publish(topic: String, bytes: [UInt8], qos: Int32 = 1, retain: Bool = false) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check(mosquitto_publish(handle, &mid, topic, Int32(bytes.count), bytes, qos, retain), "mosquitto_publish(\(topic))")
        return mid
    }

    /// Subscribes to `pattern` at `qos`.
    /// - Returns: the message id the SUBACK will carry.
    public func subscribe(_ pattern: String, qos: Int32 = 1) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try check(mosquitto_subscribe(handle, &mid, pattern, qos), "mosquitto_subscribe(\(pattern))")
        return mid
    }

    /// Asks the broker to close the connection cleanly (no last will).
    public func disconnect() {
        disconnecting = true
        _ = mosquitto_disconnect(handle)
    }

    /// The socket, -1 when not connected (for a caller that polls it).
    public var socket: Int32 { mosquitto_socket(handle) }

    /// Whether libmosquitto has data waiting to be written.
    public var wantsWrite: Bool { mosquitto_want_write(handle) }
}
