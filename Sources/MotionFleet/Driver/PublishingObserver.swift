import MotionCore
import MotionSession
import MotionSystem

/// A session observer that publishes what the session reports and passes it on to `inner`
/// (the command line's NDJSON, log and live view): each batch report, event and the session
/// summary become a fleet message (``FleetMessage``; the same objects as `--ndjson`), the
/// pauses and losses the board's retained status; with ``samples`` set (`--publish-samples`),
/// each batch's samples too (``FleetSamples``, after the batch message, with its sequence
/// number; split into parts that keep within the publisher's `maxPayloadBytes`). The status
/// (with what the board sent so far and its last sequence number) is also sent again in a batch
/// wake-up once the publisher's `statusIntervalNanoseconds` have passed since the last one, so
/// that a collector knows the session's length even when the board dies without a summary. The
/// publisher's wake-up runs in the batch's (and the event's) own wake-up.
public struct PublishingObserver<Inner: SessionObserver>: SessionObserver {
    /// Who is told as well.
    public var inner: Inner
    /// The publisher.
    public let publisher: FleetPublisher
    /// The session id.
    public let session: String
    /// The columns of published samples, nil to publish none.
    public let samples: SensorSet?
    /// The last sequence number published (batches, events and the summary share it).
    public private(set) var lastSequence = 0
    /// The sequence number of the last `samples` message published (0: none yet).
    public private(set) var lastSamplesSequence = 0
    /// The board's state, as its status says.
    public private(set) var state = FleetMessage.State.online
    /// When the status was last sent (monotonic ns).
    private var statusSentAt: Int64

    /// Creates the observer; the board is announced `online`.
    /// - Parameter samples: the sensors whose samples are published with each batch (nil: none).
    public init(inner: Inner, publisher: FleetPublisher, session: String, samples: SensorSet? = nil) {
        self.inner = inner
        self.publisher = publisher
        self.session = session
        self.samples = samples
        statusSentAt = MonotonicClock.nanoseconds()
        publisher.send(FleetMessage.status(.online, board: publisher.configuration.board, session: session, sent: [:], lastSequence: 0))
    }

    private var board: String { publisher.configuration.board }

    private func status(_ s: FleetMessage.State) -> FleetMessage {
        let d = publisher.machine.drops(session: session)
        return FleetMessage.status(s, board: board, session: session, dropped: d.dropped, droppedTaken: d.droppedTaken,
                                   sent: publisher.machine.enqueuedByKind, lastSequence: lastSequence)
    }

    /// Sends the status `s` (and makes its counts the last will's at the next connection).
    private mutating func sendStatus(_ s: FleetMessage.State, now: Int64) {
        state = s
        statusSentAt = now
        publisher.send(status(s))
        publisher.will = status(.offline)
    }

    /// In a batch wake-up: the status again when its interval has passed.
    private mutating func refreshStatus(now: Int64) {
        if now.saturatingSubtracting(statusSentAt) >= publisher.configuration.statusIntervalNanoseconds { sendStatus(state, now: now) }
    }

    public mutating func batch(_ report: BatchReport) {
        inner.batch(report)
        lastSequence = max(lastSequence, report.sequence)
        publisher.send(FleetMessage.wrap(.batch, board: board, report.json))
        let now = MonotonicClock.nanoseconds()
        refreshStatus(now: now)
        publisher.wake(now: now)
    }

    public mutating func batch(_ report: BatchReport, samples batch: SampleBatch) {
        inner.batch(report, samples: batch)
        lastSequence = max(lastSequence, report.sequence)
        publisher.send(FleetMessage.wrap(.batch, board: board, report.json))
        if let sensors = samples {
            do throws(FleetError) {
                let parts = try FleetSamples.messages(batch, sensors: sensors, board: board, session: session, sequence: report.sequence,
                                                      previous: lastSamplesSequence, maxPayload: publisher.configuration.maxPayloadBytes)
                for m in parts { publisher.send(m) }
                lastSamplesSequence = report.sequence
            } catch {
                publisher.report(.samplesSkipped(sequence: report.sequence, problem: error.description))
            }
        }
        let now = MonotonicClock.nanoseconds()
        refreshStatus(now: now)
        publisher.wake(now: now)
    }

    public mutating func event(_ event: SessionEvent, sequence: Int) {
        inner.event(event, sequence: sequence)
        lastSequence = max(lastSequence, sequence)
        publisher.send(FleetMessage.wrap(.event, board: board, event.json(session: session, sequence: sequence)))
        let state: FleetMessage.State? = switch event {
        case .paused: .paused
        case .resumed, .reconnected: .online
        case .deviceLost: .lost
        default: nil
        }
        let now = MonotonicClock.nanoseconds()
        if let s = state { sendStatus(s, now: now) }
        publisher.wake(now: now)
    }

    public mutating func finished(_ summary: SessionSummary, sequence: Int) {
        inner.finished(summary, sequence: sequence)
        lastSequence = max(lastSequence, sequence)
        var sent = publisher.machine.enqueuedByKind
        sent[.summary, default: 0] += 1
        // Room for the summary first, so that its drop counts are the final ones.
        publisher.makeRoom(for: Self.summaryMessage(summary, board: board, sequence: sequence, sent: sent, drops: publisher.machine.drops(session: session)))
        publisher.send(Self.summaryMessage(summary, board: board, sequence: sequence, sent: sent, drops: publisher.machine.drops(session: session)))
        let now = MonotonicClock.nanoseconds()
        sendStatus(.offline, now: now)
        publisher.wake(now: now)
    }

    /// The `summary` message: `type`, `seq`, then the summary's members (its own schema
    /// version as `summary_schema`), then what the board sent in the session (`sent`, per kind,
    /// the summary included) and what its outbox limit dropped of the session (`outbox_dropped`:
    /// what the broker had not taken; `outbox_dropped_taken`: what it had).
    public static func summaryMessage(_ summary: SessionSummary, board: String, sequence: Int,
                                      sent: [FleetMessage.Kind: Int]? = nil, drops: FleetDrops? = nil) -> FleetMessage {
        guard case .object(let members) = summary.json else { preconditionFailure("a summary is an object") }
        let renamed = members.map { $0.0 == "schema" ? ("summary_schema", $0.1) : $0 }
        let fleet: [(String, JSONValue)] = sent.map { [("sent", FleetMessage.sentObject($0)), ("outbox_dropped", .number(drops?.dropped ?? 0)),
                                                       ("outbox_dropped_taken", .number(drops?.droppedTaken ?? 0))] } ?? []
        return FleetMessage.wrap(.summary, board: board, .object([("type", .string("summary")), ("seq", .number(sequence))] + renamed + fleet))
    }
}
