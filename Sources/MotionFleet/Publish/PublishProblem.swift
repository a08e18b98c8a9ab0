/// Why a connection to the broker failed or ended, classified for its remedy.
public struct PublishProblem: Sendable, Equatable, CustomStringConvertible {
    /// The classes of problems.
    public enum Kind: String, Sendable {
        /// Nothing listening, host unreachable, name not resolved.
        case unreachable
        /// The broker refused the user name or password.
        case authentication
        /// The broker refused this client (ACL, client id).
        case notAuthorized
        /// TLS failed (certificate not trusted, wrong CA, host name mismatch).
        case tls
        /// No answer to the connection in time.
        case timeout
        /// The connection dropped (broker stopped, network lost, keepalive expired).
        case connectionLost
        /// Anything else the library reported.
        case other
    }

    /// The class.
    public var kind: Kind
    /// The library's or broker's words.
    public var detail: String

    /// Creates a problem.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// What to do about it.
    public var remedy: String {
        switch kind {
        case .unreachable: "check that the broker runs and listens at that host and port (and that a firewall lets it through)"
        case .authentication: "check the user in the URL and the password in --password-file (mosquitto_passwd on the broker), and that the broker lets this user connect"
        case .notAuthorized: "the broker's ACL does not allow this user; allow it to write PREFIX/<board-id>/# or use the board's own id"
        case .tls: "check --ca-file: it must hold the CA that signed the broker's certificate, and the host name must match the certificate"
        case .timeout: "the broker did not answer in time; check the network"
        case .connectionLost: "the broker or the network went away; messages wait in the outbox and are sent on reconnection"
        case .other: "see the broker's log"
        }
    }

    /// `detail (remedy)`.
    public var description: String { "\(detail): \(remedy)" }
}
