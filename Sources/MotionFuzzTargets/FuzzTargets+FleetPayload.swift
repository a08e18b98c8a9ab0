import MotionCore
import MotionFleet

extension FuzzTargets {
    /// A fleet message payload as the collector receives it: any bytes are taken or rejected
    /// with a counted reason and a printable problem; what the collector takes (`fleet/b1/<type>`)
    /// the file reader reads back from its line, and what it refuses the reader skips (one
    /// validator); a taken line gives a report row (summed over many sessions) with no trap and
    /// no NaN or infinity; an acknowledgement, a presence and a samples payload parse or are
    /// refused without a trap.
    @Sendable public static func fleetPayload(_ data: [UInt8]) {
        _ = FleetAck.parse(data)
        _ = FleetAck.presenceOnline(data)
        let checked = FleetMessageSchema.check(data, board: "b1", kind: nil, maxBytes: 1 << 20)
        let kind: FleetMessage.Kind
        switch checked {
        case .failure(let r):
            FuzzInvariant.check(isPrintableMessage(r.problem), "rejection not escaped: \(r.problem.debugDescription)")
            kind = .batch
        case .success(let m): kind = FleetMessage.Kind(rawValue: m.type)!
        }
        let received = ReceivedMessage.check(topic: "fleet/b1/\(kind.rawValue)", payload: data, prefix: "fleet", maxBytes: 1 << 20)
        switch (checked, received) {
        case (.success, .failure(let r)): FuzzInvariant.check(false, "the schema took what the collector refused: \(r)")
        case (.failure(let a), .success): FuzzInvariant.check(false, "the collector took what the schema refused: \(a.problem)")
        default: break
        }
        guard case .success(let m) = received else { return }
        let file = FleetNDJSON.parse(Array((m.payload + "\n").utf8), file: "f", board: "b1")
        // A samples line (the collector's receipt form) and a drops declaration are read apart from the messages.
        FuzzInvariant.check(file.skipped.isEmpty && file.messages.count + file.samples.count + file.drops.count == 1 && file.tornBytes == 0,
                            "the collector wrote a line the reader refuses: \(file.skipped.first?.problem ?? "")")
        if m.kind == .samples { _ = try? FleetSamples.decode(m.payload, name: "fuzz") }
        let row = FleetReport.board("b1", sessions: Array(repeating: ("s", file), count: 3), statuses: [m.session: FleetReport.SessionStatus(lastSequence: m.sequence)])
        let figures = [row.schedulerWakeupsPerHour, row.deviceWakeupsPerHour, row.batteryLifeHours].compactMap { $0 } + row.activitySeconds.map { $0.1 }
        FuzzInvariant.check(figures.allSatisfy(\.isFinite), "non-finite figure in a report row: \(figures)")
        FuzzInvariant.check(row.missing >= 0 && row.messages == 3 * file.messages.count, "report row counts: \(row.missing) missing, \(row.messages) messages")
    }

    private static func isPrintableMessage(_ s: String) -> Bool { FuzzInvariant.isPrintableMessage(s) }
}
