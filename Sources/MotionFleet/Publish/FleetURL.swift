/// Where a fleet publishes or collects: `mqtt://[USER@]HOST[:PORT]/PREFIX` (plain TCP, default
/// port 1883) or `mqtts://...` (TLS, default port 8883). The prefix is the topic prefix
/// (`PREFIX/<board-id>/batch`, ...). A plain value: parsing and the privacy rule, no I/O.
public struct FleetURL: Sendable, Equatable, CustomStringConvertible {
    /// `mqtts://`: TLS.
    public var tls: Bool
    /// The user name, nil without one.
    public var user: String?
    /// The broker's host name or address.
    public var host: String
    /// The broker's port.
    public var port: Int
    /// The topic prefix (one or more levels, no wildcards, no leading or trailing `/`).
    public var prefix: String

    /// Creates a URL.
    public init(tls: Bool, user: String?, host: String, port: Int, prefix: String) {
        self.tls = tls
        self.user = user
        self.host = host
        self.port = port
        self.prefix = prefix
    }

    /// Parses `text`.
    /// - Throws: ``FleetError/invalidURL(_:_:)`` naming the problem.
    public static func parse(_ text: String) throws(FleetError) -> FleetURL {
        let tls: Bool
        var rest: Substring
        if text.hasPrefix("mqtt://") { tls = false; rest = text.dropFirst(7) }
        else if text.hasPrefix("mqtts://") { tls = true; rest = text.dropFirst(8) }
        else { throw .invalidURL(text, "expected mqtt://[USER@]HOST[:PORT]/PREFIX or mqtts://...") }
        guard let slash = rest.firstIndex(of: "/") else { throw .invalidURL(text, "a topic prefix is needed after the host (mqtt://HOST/PREFIX)") }
        var authority = rest[..<slash]
        let prefix = String(rest[rest.index(after: slash)...])
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            user = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
            guard !user!.isEmpty, !user!.contains(":") else {
                throw .invalidURL(text, "the user must not be empty and must not carry a password (give it with --password-file)")
            }
        }
        var host = String(authority)
        var port = tls ? 8883 : 1883
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text, "an IPv6 address needs a closing ']'") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()), (1...65535).contains(p) else { throw .invalidURL(text, "the port must be 1-65535") }
                port = p
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let p = Int(authority[authority.index(after: colon)...]), (1...65535).contains(p) else { throw .invalidURL(text, "the port must be 1-65535") }
            port = p
        }
        guard !host.isEmpty else { throw .invalidURL(text, "the host is missing") }
        guard FleetTopics.isValidPrefix(prefix) else {
            throw .invalidURL(text, "the topic prefix must be non-empty levels of letters, digits, '-', '_' or '.' separated by '/' (no wildcards)")
        }
        return FleetURL(tls: tls, user: user, host: host, port: port, prefix: prefix)
    }

    /// Whether the host is this machine (127.0.0.0/8, ::1, localhost): the only place a plain
    /// `mqtt://` connection is allowed without `--insecure`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Checks the privacy rule: anything that is not loopback needs TLS unless `insecure`.
    /// - Throws: ``FleetError/insecure(_:)`` with the remedy.
    public func checkTransport(insecure: Bool) throws(FleetError) {
        if !tls, !isLoopback, !insecure { throw .insecure(host) }
    }

    /// The URL as given (without a password, which is never part of it).
    public var description: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(user.map { "\($0)@" } ?? "")\(h):\(port)/\(prefix)"
    }
}
