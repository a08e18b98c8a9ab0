import Foundation
import MotionMQTT

/// A test's own MQTT client reading a retained message (MotionMQTT's ``MQTTClient`` on the real
/// broker), bounded in time.
enum RawSubscriber {
    /// The retained payload on `topic` as `user` (nil when none arrived within `seconds`).
    static func retained(_ topic: String, broker: MosquittoBroker, user: String, seconds: Double = 5) throws -> [UInt8]? {
        var o = MQTTClient.Options(clientID: "sub-\(user)-\(UUID().uuidString.prefix(8))")
        o.user = user
        o.password = MosquittoBroker.users[user]
        let c = try MQTTClient(o)
        try c.connect(host: "127.0.0.1", port: broker.port, keepaliveSeconds: 60)
        let deadline = Date().addingTimeInterval(seconds)
        defer {
            c.disconnect()
            _ = try? c.step(timeoutMilliseconds: 50)
        }
        while Date() < deadline {
            for e in try c.step(timeoutMilliseconds: 50) {
                switch e {
                case .connected: _ = try c.subscribe(topic, qos: 1)
                case .connectRefused(let err): throw BrokerError("refused: \(err.message)")
                case let .message(t, payload, _) where t == topic: return payload
                default: break
                }
            }
        }
        return nil
    }
}
