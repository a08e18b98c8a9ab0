import Foundation
import MotionMQTT

/// A test's own MQTT client listening on one topic (MotionMQTT's ``MQTTClient`` on the real
/// broker): every message published there while it listens (and a retained one), bounded in time.
final class RawSubscriber {
    private let client: MQTTClient
    private let topic: String
    private var subscribed = false

    /// Connects as `user` and subscribes to `topic` (waits at most 5 s for the subscription).
    init(_ topic: String, broker: MosquittoBroker, user: String) throws {
        var o = MQTTClient.Options(clientID: "sub-\(user)-\(UUID().uuidString.prefix(8))")
        o.user = user
        o.password = MosquittoBroker.users[user]
        client = try MQTTClient(o)
        self.topic = topic
        try client.connect(host: "127.0.0.1", port: broker.port, keepaliveSeconds: 60)
        let deadline = Date().addingTimeInterval(5)
        while !subscribed, Date() < deadline { _ = try take(milliseconds: 50) }
        guard subscribed else { throw BrokerError("the test subscriber did not subscribe to \(topic)") }
    }

    /// The payloads that arrived within `milliseconds`.
    func take(milliseconds: Int) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        repeat {
            for e in try client.step(timeoutMilliseconds: 20) {
                switch e {
                case .connected: _ = try client.subscribe(topic, qos: 1)
                case .subscribed: subscribed = true
                case .connectRefused(let err): throw BrokerError("refused: \(err.message)")
                case let .message(t, payload, _) where t == topic: out.append(payload)
                default: break
                }
            }
        } while Date() < deadline
        return out
    }

    deinit {
        client.disconnect()
        _ = try? client.step(timeoutMilliseconds: 50)
    }
}
