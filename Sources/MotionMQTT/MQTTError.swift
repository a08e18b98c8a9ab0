import CMosquitto
#if canImport(Glibc)
import Glibc
#endif

/// A failed libmosquitto call or a broker's refusal: the library's error code (`MOSQ_ERR_*`) or
/// the MQTT v5 reason code, the call and the library's words for it.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Equatable {
        /// Nothing listens there, or the host cannot be reached or resolved.
        case unreachable
        /// TLS failed (certificate, CA, host name).
        case tls
        /// The broker refused the user name or password (reason code 134).
        case badCredentials
        /// The broker refused the client (reason code 135).
        case notAuthorized
        /// The connection was lost or is not there.
        case noConnection
        /// Anything else.
        case other
    }

    /// The class of the failure.
    public var kind: Kind
    /// `MOSQ_ERR_*` (negative: an MQTT v5 reason code, negated).
    public var code: Int32
    /// The failing call.
    public var call: String
    /// The library's text (with `strerror` for `MOSQ_ERR_ERRNO`).
    public var message: String

    /// Creates an error value.
    public init(kind: Kind, code: Int32, call: String, message: String) {
        self.kind = kind
        self.code = code
        self.call = call
        self.message = message
    }

    /// The error for libmosquitto result `rc` of `call` (reading `errno` for `MOSQ_ERR_ERRNO`).
    static func library(_ rc: Int32, _ call: String) -> MQTTError {
        var kind = Kind.other
        var text = String(cString: mosquitto_strerror(rc))
        switch rc {
        case Int32(MOSQ_ERR_ERRNO.rawValue):
            let e = errno
            text = String(cString: strerror(e))
            kind = [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL].contains(e) ? .unreachable : (e == ECONNRESET || e == EPIPE ? .noConnection : .other)
        case Int32(MOSQ_ERR_EAI.rawValue), Int32(MOSQ_ERR_UNKNOWN.rawValue) where call.hasPrefix("mosquitto_connect"):
            kind = .unreachable
        case Int32(MOSQ_ERR_TLS.rawValue), Int32(MOSQ_ERR_TLS_HANDSHAKE.rawValue): kind = .tls
        case Int32(MOSQ_ERR_NO_CONN.rawValue), Int32(MOSQ_ERR_CONN_LOST.rawValue), Int32(MOSQ_ERR_KEEPALIVE.rawValue): kind = .noConnection
        case Int32(MOSQ_ERR_AUTH.rawValue): kind = .badCredentials
        case Int32(MOSQ_ERR_CONN_REFUSED.rawValue): kind = .notAuthorized
        default: break
        }
        return MQTTError(kind: kind, code: rc, call: call, message: text)
    }

    /// The refusal carried by an MQTT v5 reason code (CONNACK, PUBACK).
    static func reason(_ code: Int32, _ call: String) -> MQTTError {
        let kind: Kind = switch code {
        case Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue): .badCredentials
        case Int32(MQTT_RC_NOT_AUTHORIZED.rawValue): .notAuthorized
        default: .other
        }
        return MQTTError(kind: kind, code: -code, call: call, message: String(cString: mosquitto_reason_string(code)))
    }

    /// `call failed: message`.
    public var description: String { "\(call): \(message)" }
}
