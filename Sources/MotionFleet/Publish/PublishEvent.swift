/// What the publisher reports (one log line each; the capture goes on whatever happens).
public enum PublishEvent: Sendable, Equatable, CustomStringConvertible {
    /// Connected; `backlog` messages wait to be sent (after `failures` failed attempts).
    case connected(backlog: Int, failures: Int)
    /// A connection attempt failed; the next in `retryNanoseconds`. Logged when the problem
    /// changes, not for every attempt.
    case connectFailed(PublishProblem, retryNanoseconds: Int64)
    /// The connection ended; messages in flight will be sent again.
    case connectionLost(PublishProblem, retryNanoseconds: Int64)
    /// The broker refused a message (not authorized by its ACL); it is not sent again.
    case refused(topic: String, reason: String)
    /// The outbox was over `--outbox-max`: the oldest per-batch messages were dropped (`total` so far).
    case dropped(count: Int, total: Int)
    /// The outbox file was rewritten with only the `entries` not yet acknowledged.
    case compacted(entries: Int)
    /// A batch's samples were not published (`--publish-samples`): `problem` says why.
    case samplesSkipped(sequence: Int, problem: String)
    /// Writing the outbox failed (the message is still sent from memory).
    case journalFailed(String)
    /// A collector came online (none was); `unacknowledged` messages wait for its acknowledgement.
    case collectorOnline(collector: String, unacknowledged: Int)
    /// The last online collector went offline: what the broker took is not sent again until one returns.
    case collectorOffline(collector: String)
    /// `count` messages the broker took and no collector acknowledged are sent again.
    case resending(count: Int)
    /// The broker refused the subscription to the collectors' acknowledgements or presence.
    case subscriptionRefused(String)
    /// A repeated event (`refused TOPIC`, `dropped`, `compacted`) happened `count` more times since
    /// it was last logged (`total`: all drops so far).
    case repeated(what: String, count: Int, total: Int?)

    /// One line for the log.
    public var description: String {
        func s(_ ns: Int64) -> String { "\(Double(ns / 100_000_000) / 10) s" }
        switch self {
        case let .connected(backlog, failures):
            return "publish: connected" + (failures > 0 ? " after \(failures) failed attempts" : "") + "; \(backlog) messages in the outbox"
        case let .connectFailed(p, retry): return "publish: cannot connect: \(p); retrying in \(s(retry)) (the capture goes on)"
        case let .connectionLost(p, retry): return "publish: connection lost: \(p); retrying in \(s(retry))"
        case let .refused(topic, reason): return "publish: the broker refused \(topic) (\(reason)): the ACL does not allow this board to publish there"
        case let .dropped(count, total): return "publish: the outbox is full (--outbox-max): dropped the \(count) oldest samples or batch messages (\(total) so far)"
        case .compacted(let n): return "publish: outbox compacted (\(n) messages not yet acknowledged)"
        case let .samplesSkipped(seq, problem): return "publish: the samples of batch \(seq) are not published: \(problem)"
        case .journalFailed(let why): return "publish: the outbox could not be written (\(why)); unsent messages would be lost in a crash"
        case let .collectorOnline(c, n): return "publish: collector \(c) is online; \(n) messages wait for its acknowledgement"
        case .collectorOffline(let c): return "publish: collector \(c) went offline; what the broker took is kept in the outbox and not sent again until a collector returns"
        case .resending(let n): return "publish: sending again \(n) messages the broker took and no collector acknowledged, oldest first"
        case let .repeated(what, count, total):
            let noun = switch what {
            case _ where what.hasPrefix("refused "): "\(count) more messages to \(what.dropFirst(8)) refused by the broker"
            case "dropped": "\(count) more messages dropped by --outbox-max (\(total ?? 0) in all)"
            default: "\(count) more outbox compactions"
            }
            return "publish: \(noun) in the last minute or more"
        case .subscriptionRefused(let t):
            return "publish: the broker refused the subscription to \(t): the ACL must let the board read PREFIX/_ack/<board>/# and PREFIX/_collector/# (contrib/mosquitto/acl); without a collector's acknowledgements the outbox only grows (or use --ack broker)"
        }
    }
}
