import MotionCore
import MotionSystem

extension CaptureMachine {
    /// Applies `event` (the answer to the last action) at monotonic time `now` (ns) and returns
    /// the next action. Events that do not fit the state are ignored (the next action is
    /// computed again).
    public mutating func handle(_ event: Event, at now: Int64) -> Action {
        switch (state, event) {
        case (.idle, .start):
            state = .preparing
            return .prepare
        case (.preparing, .prepared(let setups)):
            configure(setups)
            return .startStreaming
        case (.preparing, .streaming):
            let reconnected = everStreamed
            beginStreaming(at: now)
            retryAt = nil
            retryDelay = 0
            return reconnected ? .mark(.deviceBack(at: now, lostAt: lostAt)) : next(now)
        case (.preparing, .failed(let f)) where everStreamed && settings.reconnect && Self.mayComeBack(f):
            // Back too early (udev has not applied permissions yet, the second device is not
            // there yet...): wait for the next device event, or the back-off, and try again.
            state = .reconnecting
            retryDelay = retryDelay == 0 ? Self.retryDelays.first : min(2 * retryDelay, Self.retryDelays.cap)
            retryAt = now + retryDelay
            return .awaitDevice(until: [retryAt, deadline].compactMap { $0 }.min())
        case (.paused, .failed(let f)) where settings.reconnect && Self.mayComeBack(f):
            // The device went away while paused: reconnect (nothing is held during a pause).
            state = .lost
            lostState = f.accessState.map { $0.isLoss ? $0 : .lost(device: streams.first?.setup.report.name ?? "device") }
            lostAt = now
            lostSteps = []
            return continueLost(now)
        case (.preparing, .failed(let f)), (.paused, .failed(let f)):
            if !everStreamed { startFailure = f }
            return requestStop(.failed(f), at: now)
        case (.active, .woke(let w)):
            absorb(w, at: now)
            return next(now)
        case (.active, .drained(let d)):
            absorb(d, at: now)
            return next(now)
        case (.active, .yielded):
            if let i = yieldFor { drains.insert(.stream(i)); yieldFor = nil }
            return next(now)
        case (.active, .probed(let s)):
            absorbProbe(s, at: now)
            return state == .lost ? continueLost(now) : next(now)
        case (.active, .delivered), (.lost, .delivered):
            if limitReached, !hasReason { return requestStop(.sampleCount, at: now) }
            return state == .lost ? continueLost(now) : next(now)
        case (.active, .deliveryFailed(let f)), (.lost, .deliveryFailed(let f)):
            return requestStop(.failed(f), at: now)
        case (.active, .marked):
            return pauseRequested ? .pauseStreaming : next(now)
        case (.active, .paused):
            pauseRequested = false
            state = .paused
            return waitWhilePaused(now)
        case (.paused, .woke(let w)):
            if let stop = controlStop(w) { return requestStop(stop, at: now) }
            if let d = deadline, now >= d { return requestStop(.duration, at: now) }
            if w.controls.contains(.resume) {
                // The resumption starts now: samples stamped after this instant are new.
                resumeRequestedAt = now
                return .resumeStreaming
            }
            return waitWhilePaused(now)
        case (.paused, .streaming):
            state = .active
            restartStreams(at: now)
            return .mark(.resumed(at: resumeRequestedAt ?? now))
        case (.lost, .marked):
            return continueLost(now)
        case (.lost, .released):
            state = .reconnecting
            // The device may be back already (a quick re-plug): try at once.
            state = .preparing
            reconnectAttempts += 1
            return .prepare
        case (.reconnecting, .woke(let w)):
            if let stop = controlStop(w) { return requestStop(stop, at: now) }
            if let d = deadline, now >= d { return requestStop(.duration, at: now) }
            if w.deviceAdded || (retryAt.map { now >= $0 } ?? false) {
                state = .preparing
                reconnectAttempts += 1
                return .prepare
            }
            return .awaitDevice(until: [retryAt, deadline].compactMap { $0 }.min())
        case (.preparing, .marked):
            return next(now)
        case (.stopping, _):
            return continueStop(event, at: now)
        default:
            // An answer that does not fit: ask again for what the state needs.
            switch state {
            case .active: return next(now)
            case .paused: return waitWhilePaused(now)
            case .lost: return continueLost(now)
            case .reconnecting: return .awaitDevice(until: [retryAt, deadline].compactMap { $0 }.min())
            case .idle, .saved: return .finished
            case .preparing, .stopping: return requestStop(reason ?? .duration, at: now)
            }
        }
    }

    // MARK: starting

    mutating func configure(_ setups: [StreamSetup]) {
        let old = statistics.devices
        streams = setups.map { setup in
            var s = StreamState(setup: setup)
            if let before = old.first(where: { $0.id == setup.report.id || $0.name == setup.report.name }) {
                s.setup.report.addCounts(of: before)
            }
            return s
        }
        merger = setups.count == 2 ? SampleMerger() : nil
        let timedOK = settings.timedWait && settings.removalEvents && setups.allSatisfy {
            $0.report.plan.waitStrategy == .pollWatermark && $0.report.plan.expectedBurst == nil && $0.report.plan.batchSamples > 1 && $0.period != nil
        }
        if setups.contains(where: { $0.report.plan.waitStrategy == .blockingRefill }) {
            mode = .blocking
        } else {
            mode = timedOK ? .timed : .buffers
        }
        stats.timedWait = mode == .timed
    }

    private func streamsReport(_ id: String) -> CaptureStatistics.Device? {
        stats.devices.first { $0.id == id }
    }

    mutating func beginStreaming(at now: Int64) {
        state = .active
        if !everStreamed {
            everStreamed = true
            startTime = now
            deadline = settings.duration.map { now + Int64(($0 * 1e9).rounded()) }
            if let s = settings.stall {
                let at = now + Int64((s.after * 1e9).rounded())
                stall = (at, at + Int64((s.duration * 1e9).rounded()))
            }
        }
        restartStreams(at: now)
    }

    /// Fresh per-stream state after (re)starting the buffers: a pause or a reconnection is not
    /// bridged as a gap, and timestamp repair starts anew.
    mutating func restartStreams(at now: Int64) {
        for i in streams.indices {
            streams[i].lostBefore = streams[i].setup.report.lostSamples
            streams[i].gapsBefore = streams[i].setup.report.gaps
            let p = streams[i].setup.period
            if let period = p {
                streams[i].repair = settings.repairTimestamps ? TimestampRepair(period: period, expectedBurst: streams[i].plan.expectedBurst) : nil
                streams[i].gaps = GapDetector(period: period)
                streams[i].due = mode == .timed ? BatchDueClock(batchSamples: streams[i].plan.batchSamples, period: period, start: now) : nil
            }
            streams[i].pending = []
            streams[i].rounds = 0
            streams[i].wakeTotal = 0
            streams[i].lastDrain = 0
            streams[i].burstSeen = 0
            streams[i].burstOpen = false
        }
        merger = streams.count == 2 ? SampleMerger() : nil
        if mode == .blocking { drains = .first(streams.count) }
    }

    // MARK: streaming

    /// The next action while active: probes first, then drains, then deliveries, then a wait.
    mutating func next(_ now: Int64) -> Action {
        if hasReason, let r = reason { return requestStop(r, at: now) }
        if let (i, _) = probes.first { return .probe(stream: i) }
        if yieldFor != nil { return .yield }
        if let i = drains.popFirst() {
            lastDrained = i
            if let upTo = joinable(i) {
                // The count ends a collection on time; the time limit (twice the delay) only when
                // the device stalls (or at the deadline), so it costs no wake-up of its own.
                let until = min(deadline ?? .max, now &+ 2 &* settings.joinNanoseconds)
                if until > now { return .collect(stream: i, recheckScale: scaleCheckDue(i, at: now), upTo: upTo, until: until) }
            }
            return .drain(stream: i, recheckScale: scaleCheckDue(i, at: now))
        }
        if !ready.isEmpty {
            let batch = emit(merged(ready))
            ready.removeAll(keepingCapacity: true)
            if let batch { return .deliver(batch) }
            if limitReached { return requestStop(.sampleCount, at: now) }
        }
        if pauseRequested { return beginPause(at: now) }
        return .wait(waitRequest(at: now))
    }

    /// Samples a drain of stream `i` may collect over several wake-ups
    /// (``Action/collect(stream:recheckScale:upTo:until:)``), nil for a plain drain: only a lone
    /// per-sample stream with device timestamps (each sample keeps its own time), waited on in
    /// `buffers` mode, with nothing pending (no stop, pause, probe, stall or yield) and room below
    /// the sample limit.
    func joinable(_ i: Int) -> Int? {
        guard settings.joinSamples > 1, mode == .buffers, streams.count == 1, stall == nil, !pauseRequested,
              probes.isEmpty, yieldFor == nil, drains.isEmpty else { return nil }
        let s = streams[i]
        guard s.hasTimestamp, s.plan.bufferCapacity == 1, s.plan.expectedBurst == nil,
              let period = s.setup.period, period > 0 else { return nil }
        // As many as arrive in the delay at the stream's rate (25 at 100 Hz, none below 8 Hz).
        var upTo = min(settings.joinSamples, Int(settings.joinNanoseconds / period))
        if let limit = settings.sampleLimit { upTo = min(upTo, limit - stats.samples) }
        return upTo > 1 ? upTo : nil
    }

    mutating func scaleCheckDue(_ i: Int, at now: Int64) -> Bool {
        guard let last = streams[i].lastScaleCheck else { streams[i].lastScaleCheck = now; return false }
        guard now - last >= 1_000_000_000 else { return false }
        streams[i].lastScaleCheck = now
        return true
    }

    mutating func waitRequest(at now: Int64) -> Wait {
        lastWaitWasCheck = false
        // A stall waits on nothing but its end (and controls): woken early (a signal, a device
        // event), it waits again instead of waiting on buffers it would not drain (a busy loop).
        if let s = stall, now < s.until, stalling || now >= s.at {
            stalling = true
            return Wait(streams: [], until: s.until)
        }
        switch mode {
        case .buffers:
            noteSplitBursts(at: now)
            var until = deadline
            if !settings.removalEvents { until = min(until ?? Int64.max, now + settings.livenessTimeout) }
            return Wait(streams: .first(streams.count), until: until)
        case .timed:
            let due = streams.compactMap { $0.due?.due }.min()
            let until = [due, deadline].compactMap { $0 }.min()
            return Wait(streams: [], until: until)
        case .blocking:
            lastWaitWasCheck = true
            return Wait(streams: [], until: now)
        }
    }

    mutating func absorb(_ w: Wake, at now: Int64) {
        if !lastWaitWasCheck {
            stats.userspaceReturns += 1
            if !w.controls.isEmpty || w.deviceRemoved || w.deviceAdded { stats.eventWakes += 1 }
        }
        if let stop = controlStop(w) { reason = .signal(signalOf(stop)); return }
        let pausing = w.controls.contains(.pause) && !pauseRequested
        if pausing { pauseRequested = true }
        if let d = deadline, now >= d { reason = .duration; return }
        if stalling {
            if let s = stall, now >= s.until { stalling = false; stall = nil } else { return }
        }
        if w.deviceRemoved { for i in streams.indices { probes.append((i, .removal)) } }
        for i in streams.indices where w.errored.has(i) { probes.append((i, .pollError)) }
        switch mode {
        case .buffers:
            for i in streams.indices where w.readable.has(i) { streams[i].rounds = 0; streams[i].wakeTotal = 0; drains.insert(.stream(i)) }
            if w.readable.isEmpty, w.errored.isEmpty, !w.deviceRemoved, !settings.removalEvents {
                // A quiet wait without removal events: quiet device or lost device? Ask fresh.
                for i in streams.indices { probes.append((i, .quiet)) }
            }
        case .timed:
            for i in streams.indices where (streams[i].due?.due ?? .max) <= now { drains.insert(.stream(i)) }
        case .blocking:
            drains = .first(streams.count)
        }
        // Before the buffers go, what the kernel holds is read (a timed batch not yet due).
        if pausing, mode != .blocking { drains = .first(streams.count) }
    }

    /// Before a wait on the buffers at `now`: counts each FIFO burst left incomplete (once per
    /// burst; the burst is complete when its expected scans were read, across waits, unless
    /// the rest comes more than half a latency later: then it is the next burst).
    mutating func noteSplitBursts(at now: Int64) {
        for i in streams.indices {
            guard let n = streams[i].plan.expectedBurst else { continue }
            if streams[i].burstSeen > 0, streams[i].burstSeen < n {
                if !streams[i].burstOpen {
                    streams[i].burstOpen = true
                    streams[i].burstOpenedAt = now
                    stats.splitBursts += 1
                }
            } else {
                streams[i].burstSeen = 0
                streams[i].burstOpen = false
            }
        }
    }

    func controlStop(_ w: Wake) -> CaptureStopReason? {
        for c in w.controls { if case .stop(let s) = c { return .signal(s) } }
        return nil
    }

    private func signalOf(_ r: CaptureStopReason) -> Int32 {
        if case .signal(let s) = r { return s }
        return 0
    }

    /// Applies a drain's result to stream `i` (the one last asked for).
    mutating func absorb(_ d: Drain, at now: Int64) {
        guard let i = lastDrained else { return }
        stats.refills += d.refills
        if d.wakeups > 0 { stats.userspaceReturns += d.wakeups }
        defer {
            if let w = d.interruption { absorb(w, at: now) }
            // A collection that ran into the deadline woke for it: stop, as a wait would.
            else if d.wakeups > 0, let dl = deadline, now >= dl, !hasReason { reason = .duration }
        }
        let got = streams[i].take(d, at: now)
        if d.failed, let e = d.failure {
            probes.append((i, .drainError(e)))
            if mode == .timed { streams[i].pending += got } else if !got.isEmpty { ready.append(Ready(stream: i, samples: got)) }
            return
        }
        switch mode {
        case .timed:
            if let batch = streams[i].hold(got, scans: d.samples.count, at: now) { ready.append(Ready(stream: i, samples: batch)) }
        case .blocking:
            stats.userspaceReturns += 1
            ready.append(Ready(stream: i, samples: got))
        case .buffers:
            if !got.isEmpty { ready.append(Ready(stream: i, samples: got)) }
            if streams[i].burstOpen, Double(now - streams[i].burstOpenedAt) > streams[i].plan.latencySeconds * 5e8 {
                streams[i].burstSeen = 0
                streams[i].burstOpen = false
            }
            streams[i].burstSeen += d.samples.count
            // A hardware-FIFO burst is pushed sample by sample; woken by its first sample the
            // reader can run mid-burst. While the burst is incomplete and each yield brings
            // more, yield so the producer finishes it, then drain again.
            if streams[i].burstContinues(afterDrainOf: d.samples.count, stopping: hasReason) {
                stats.yields += 1
                yieldFor = i
            }
        }
    }

    /// Timestamp repair and gap detection of a stream's samples.
    mutating func collect(_ i: Int, _ raw: [Sample], final: Bool = false) -> [Sample] {
        streams[i].collect(raw, final: final)
    }

    /// The samples of several streams as one stream (merged by time for accel + gyro devices).
    mutating func merged(_ perStream: [Ready]) -> [Sample] {
        guard merger != nil else { return perStream.count == 1 ? perStream[0].samples : perStream.flatMap(\.samples) }
        var out: [Sample] = []
        for r in perStream {
            out += streams[r.stream].setup.hasAccel ? merger!.pushAccel(r.samples) : merger!.pushGyro(r.samples)
        }
        return out
    }

    /// What is held for delivery flushed: repair runs, merger tail.
    mutating func flushed() -> [Sample] {
        var out: [Sample] = []
        if merger != nil {
            for i in streams.indices {
                let tail = collect(i, [], final: true)
                out += streams[i].setup.hasAccel ? merger!.pushAccel(tail) : merger!.pushGyro(tail)
            }
            out += merger!.finish()
        } else {
            for i in streams.indices { out += collect(i, [], final: true) }
        }
        return out
    }

    /// A batch of `samples`, cut at the sample limit; nil when empty.
    mutating func emit(_ samples: [Sample]) -> SampleBatch? {
        guard !limitReached else { return nil }
        var batch = samples
        if let limit = settings.sampleLimit, stats.samples + batch.count >= limit {
            batch = Array(batch.prefix(limit - stats.samples))
            limitReached = true
        }
        guard let last = batch.last else { return nil }
        stats.samples += batch.count
        stats.batches += 1
        return SampleBatch(samples: batch, deliveredAt: last.timestamp)
    }

    mutating func absorbProbe(_ s: AccessState?, at now: Int64) {
        guard !probes.isEmpty else { return }
        let (i, cause) = probes.removeFirst()
        let name = streams[i].setup.report.name
        switch cause {
        case .removal, .quiet:
            if let s, case .lost = s { deviceLost(s, at: now) }
        case .pollError:
            if let s, s != .available, s.isLoss { deviceLost(s, at: now) }
            else if let s, s != .available { reason = .failed(.access(s, error: nil)) }
            else { reason = .failed(.pollError(device: name)) }
        case .drainError(let e):
            let state = AccessState.explaining(e, device: name, probed: s, duringCapture: true, remoteURI: settings.remoteURI)
            if let st = state, st.isLoss { deviceLost(st, at: now) }
            else if let st = state { reason = .failed(.access(st, error: e)) }
            else { reason = .failed(.system(e)) }
        }
    }

    // MARK: lost, reconnecting

    mutating func deviceLost(_ s: AccessState, at now: Int64) {
        probes = []
        drains = []
        guard settings.reconnect else { reason = .lost(s); return }
        state = .lost
        lostState = s
        lostAt = now
        lostSteps = [.deliverHeld, .deliverFlush]
    }

    /// Whether a failed attempt to reconnect may succeed later: the device is not (yet) there,
    /// not (yet) accessible or busy; other failures (a plan the device cannot follow, a range it
    /// lacks) stop the capture.
    static func mayComeBack(_ f: CaptureFailure) -> Bool {
        guard case .access(let s, _) = f else { return false }
        switch s {
        case .deviceAbsent, .permissionDenied, .busy, .lost, .noIIOSubsystem, .unreachable, .disconnected: return true
        case .available: return false
        }
    }

    mutating func continueLost(_ now: Int64) -> Action {
        while let step = lostSteps.first {
            lostSteps.removeFirst()
            switch step {
            case .deliverHeld:
                if let b = emit(merged(heldForStop())) { return .deliver(b) }
            case .deliverFlush:
                if let b = emit(flushed()) { return .deliver(b) }
            default: break
            }
        }
        if !lostMarked { lostMarked = true; return .mark(.deviceLost(at: lostAt, state: lostState ?? .lost(device: "device"))) }
        lostMarked = false
        return .release
    }

    // MARK: pausing

    mutating func beginPause(at now: Int64) -> Action {
        // What is held is delivered first (the pause is not bridged by the repair or the merger).
        let held = heldForStop()
        let tail = flushed()
        if let b = emit(merged(held) + tail) { return .deliver(b) }
        return .mark(.paused(at: now))
    }

    mutating func waitWhilePaused(_ now: Int64) -> Action {
        .wait(Wait(streams: [], until: deadline))
    }

    /// Samples read but not yet delivered (timed waiting's pending, ready ones).
    mutating func heldForStop() -> [Ready] {
        var out = ready
        ready = []
        for i in streams.indices where !streams[i].pending.isEmpty {
            out.append(Ready(stream: i, samples: streams[i].pending))
            streams[i].pending = []
        }
        return out
    }

    // MARK: stopping

    /// Starts the stop sequence for `r` (the first reason is kept).
    mutating func requestStop(_ r: CaptureStopReason, at now: Int64) -> Action {
        if state == .stopping { return .finished }
        let wasStreaming = state == .active
        reason = reason ?? r
        if stats.stopDecidedAt == nil { stats.stopDecidedAt = now }
        state = .stopping
        probes = []
        drains = []
        yieldFor = nil
        var steps: [StopStep] = []
        let r = reason!
        if wasStreaming {
            let finalDrain: Bool
            switch r {
            case .duration, .signal: finalDrain = mode != .blocking
            default: finalDrain = false
            }
            if finalDrain { steps += streams.indices.map { .finalDrain($0) } }
            if r != .sampleCount { steps += [.deliverHeld, .deliverFlush] }
        }
        steps += [.release, .close, .finish]
        stopSteps = steps
        return stepStop(at: now)
    }

    mutating func continueStop(_ event: Event, at now: Int64) -> Action {
        switch event {
        case .drained(let d):
            if let i = lastDrained, !d.failed {
                stats.refills += d.refills
                let got = streams[i].take(d, at: now)
                if mode == .timed { streams[i].pending += got } else if !got.isEmpty { ready.append(Ready(stream: i, samples: got)) }
            }
        case .deliveryFailed(let f):
            if reason?.isClean ?? true { reason = .failed(f) }
            stopSteps.removeAll { if case .deliverFlush = $0 { true } else { false } }
        case .recordingClosed(let f):
            if let f, reason?.isClean ?? true { reason = .failed(f) }
            state = .saved
        default: break
        }
        return stepStop(at: now)
    }

    mutating func stepStop(at now: Int64) -> Action {
        while let step = stopSteps.first {
            stopSteps.removeFirst()
            switch step {
            case .finalDrain(let i):
                lastDrained = i
                return .drain(stream: i, recheckScale: false)
            case .deliverHeld:
                if let b = emit(merged(heldForStop())) { return .deliver(b) }
            case .deliverFlush:
                if let b = emit(flushed()) { return .deliver(b) }
            case .release:
                if everStreamed { stats.elapsedNanoseconds = now - startTime }
                return .release
            case .close:
                return .closeRecording
            case .finish:
                stats.stopReason = reason ?? .duration
                state = .saved
                return .finished
            }
        }
        return .finished
    }
}
