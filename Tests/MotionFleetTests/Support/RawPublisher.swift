import Foundation
import MotionMQTT

/// A test's own MQTT client (MotionMQTT's ``MQTTClient`` on the real broker): publishes arbitrary
/// payloads as one user and waits (bounded) until the broker acknowledged each.
enum RawPublisher {
    /// Publishes `messages` (topic, payload) at QoS 1 as `user` (those on a `status` topic
    /// retained, as boards do); waits at most 10 s in all.
    /// - Returns: the number the broker acknowledged.
    @discardableResult
    static func publish(_ messages: [(topic: String, payload: [UInt8])], broker: MosquittoBroker, user: String) throws -> Int {
        var o = MQTTClient.Options(clientID: "raw-\(user)-\(UUID().uuidString.prefix(8))")
        o.user = user
        o.password = MosquittoBroker.users[user]
        let c = try MQTTClient(o)
        try c.connect(host: "127.0.0.1", port: broker.port, keepaliveSeconds: 60)
        let deadline = Date().addingTimeInterval(10)
        var connected = false
        while !connected, Date() < deadline {
            for e in try c.step(timeoutMilliseconds: 50) {
                if case .connected = e { connected = true }
                if case .connectRefused(let err) = e { throw BrokerError("refused: \(err.message)") }
            }
        }
        guard connected else { throw BrokerError("the test client did not connect") }
        for m in messages { _ = try c.publish(topic: m.topic, bytes: m.payload, retain: m.topic.hasSuffix("/status")) }
        var acked = 0
        while acked < messages.count, Date() < deadline {
            for e in try c.step(timeoutMilliseconds: 50) { if case .published = e { acked += 1 } }
        }
        c.disconnect()
        _ = try? c.step(timeoutMilliseconds: 50)
        return acked
    }
}
