import MotionCore
import Testing
@testable import MotionEmulator

@Test func noDataWhileOffOrNotReporting() throws {
    var hub = try makeHub()
    #expect(decodeInputs(hub.advance(to: 5_000 * ms)).isEmpty)
    #expect(hub.nextDeadline == nil)
    // Powered but reporting "no events": still nothing.
    _ = hub.set(.accelerometer, reporting: 1, power: 2, now: 5_000 * ms)
    #expect(decodeInputs(hub.advance(to: 6_000 * ms)).isEmpty)
    // Reporting but powered off (D4): nothing.
    _ = hub.set(.accelerometer, reporting: 2, power: 6, now: 6_000 * ms)
    #expect(decodeInputs(hub.advance(to: 7_000 * ms)).isEmpty)
    #expect(hub.sensors[0].counters.samplesSent == 0)
}

@Test func activeSensorSendsRecordingInOrderWithHubTimestamps() throws {
    var hub = try makeHub()
    let t0: Int64 = 1_000 * ms
    var actions = hub.set(.accelerometer, now: t0)
    #expect(actions.last == .replySetReport(requestID: 7, error: 0))
    actions += hub.advance(to: t0 + 95 * ms)
    let inputs = decodeInputs(actions)
    #expect(inputs.count == 10)  // t0, t0+10, ..., t0+90 ms
    #expect(inputs.map(\.raw.x) == (0..<10).map(accelX))
    #expect(inputs.map(\.micros) == (0..<10).map { UInt64((t0 + Int64($0) * 10 * ms) / 1000) })
    #expect(inputs.allSatisfy { $0.reportID == 1 })
    #expect(hub.nextDeadline == t0 + 100 * ms)
    #expect(hub.sensors[0].counters.bursts == 10 && hub.sensors[0].counters.maxBurst == 1)
    // The gyroscope was not switched on.
    #expect(hub.sensors[1].counters.samplesGenerated == 0)
}

@Test func arrivalModeSendsNoTimestamp() throws {
    var hub = try makeHub(hubTimestamps: false)
    let inputs = decodeInputs(hub.set(.accelerometer, now: 0) + hub.advance(to: 30 * ms))
    #expect(inputs.count == 4 && inputs.allSatisfy { $0.micros == nil })
}

@Test func intervalChangeResamplesTheRecording() throws {
    var hub = try makeHub()
    _ = hub.set(.accelerometer, now: 0)
    var inputs = decodeInputs(hub.advance(to: 20 * ms))  // rows 0, 1, 2 at 0, 10, 20 ms
    #expect(inputs.map(\.raw.x) == [0, 1, 2].map(accelX))
    // 25 Hz: 40 ms per sample, the recording advances 4 rows per sample.
    _ = hub.set(.accelerometer, intervalMs: 40, now: 25 * ms)
    inputs = decodeInputs(hub.advance(to: 180 * ms))
    #expect(inputs.map(\.raw.x) == [3, 7, 11, 15].map(accelX))
    #expect(hub.sensors[0].features.reportIntervalMs == 40)
    #expect(hub.sensors[0].history.map(\.property) == ["reporting_state", "power_state", "report_interval_ms"])
    // 15 ms from the last sample (180 ms): row 19 at 195 ms, then row 20.5 (interpolated) at 210 ms.
    _ = hub.set(.accelerometer, intervalMs: 15, now: 181 * ms)
    inputs = decodeInputs(hub.advance(to: 210 * ms))
    #expect(inputs.map(\.raw.x) == [accelX(19), EmulatedSensorKind.accelerometer.raw(Vector3(20.5, 0, 0)).x])
}

@Test func latencyDeliversOneBurstPerPeriod() throws {
    var hub = try makeHub(count: 1000)
    _ = hub.set(.accelerometer, latencyMs: 500, now: 0)
    #expect(decodeInputs(hub.advance(to: 499 * ms)).isEmpty)
    #expect(hub.nextDeadline == 500 * ms)
    let first = decodeInputs(hub.advance(to: 500 * ms))
    #expect(first.map(\.raw.x) == (0...50).map(accelX))  // samples at 0...500 ms
    let second = decodeInputs(hub.advance(to: 1_000 * ms))
    #expect(second.map(\.raw.x) == (51...100).map(accelX))
    // Hub timestamps keep the sample spacing inside a burst.
    #expect(Set(zip(second, second.dropFirst()).map { $1.micros! - $0.micros! }) == [10_000])
    #expect(hub.sensors[0].counters.bursts == 2 && hub.sensors[0].counters.maxBurst == 51)
    // Latency back to 0 flushes what is queued and returns to per-sample delivery.
    let flushed = decodeInputs(hub.set(.accelerometer, latencyMs: 0, now: 1_055 * ms))
    #expect(flushed.map(\.raw.x) == (101...105).map(accelX))
    #expect(decodeInputs(hub.advance(to: 1_060 * ms)).map(\.raw.x) == [accelX(106)])
}

@Test(arguments: [(OverflowPolicy.dropOldest, Array(6...10)), (.dropNewest, Array(0...4))])
func fullFIFODropsByPolicy(policy: OverflowPolicy, kept: [Int]) throws {
    var hub = try makeHub(capacity: 5, overflow: policy)
    _ = hub.set(.accelerometer, latencyMs: 100, now: 0)
    let burst = decodeInputs(hub.advance(to: 100 * ms))  // 11 samples due (0...100 ms), room for 5
    #expect(burst.map(\.raw.x) == kept.map(accelX))
    let c = hub.sensors[0].counters
    #expect(c.samplesGenerated == 11 && c.samplesSent == 5 && c.samplesDropped == 6 && c.bursts == 1)
}

@Test func switchingOffDiscardsQueuedSamplesAndPausesPlayback() throws {
    var hub = try makeHub()
    _ = hub.set(.accelerometer, latencyMs: 1000, now: 0)
    _ = hub.advance(to: 300 * ms)
    #expect(decodeInputs(hub.set(.accelerometer, reporting: 1, power: 6, latencyMs: 1000, now: 305 * ms)).isEmpty)
    #expect(hub.sensors[0].counters.samplesDiscarded == 31)
    #expect(hub.nextDeadline == nil)
    // On again: playback continues where it paused (row 31), first burst one latency later.
    _ = hub.set(.accelerometer, latencyMs: 1000, now: 10_000 * ms)
    let burst = decodeInputs(hub.advance(to: 11_000 * ms))
    #expect(burst.first?.raw.x == accelX(31) && burst.count == 69)  // rows 31...99, then the recording ends
}

@Test func getReportAnswersByType() throws {
    var hub = try makeHub()
    let feature = hub.handle(.getReport(requestID: 1, reportID: 2, type: .feature), now: 0)
    #expect(feature == [.replyGetReport(requestID: 1, error: 0,
                                        data: hub.layout.featureReport(.gyroscope, .initial(reportIntervalMs: 10)))])
    let input = hub.handle(.getReport(requestID: 2, reportID: 1, type: .input), now: 0)
    guard case let .replyGetReport(2, 0, data) = input.first else { Issue.record("no input reply: \(input)"); return }
    #expect(decodeInputs([.sendInput(report: data)]).first?.raw.x == accelX(0))
    #expect(hub.handle(.getReport(requestID: 3, reportID: 9, type: .feature), now: 0) == [.replyGetReport(requestID: 3, error: 5, data: [])])
    #expect(hub.handle(.getReport(requestID: 4, reportID: 1, type: .output), now: 0) == [.replyGetReport(requestID: 4, error: 5, data: [])])
    #expect(hub.sensors.map(\.counters.getReports) == [2, 1])  // accel: input + output; gyro: feature
}

@Test func everySetReportGetsAReply() throws {
    var hub = try makeHub()
    #expect(hub.handle(.setReport(requestID: 1, reportID: 1, type: .feature, data: [1, 2]), now: 0) == [.replySetReport(requestID: 1, error: 22)])
    #expect(hub.handle(.setReport(requestID: 2, reportID: 5, type: .feature, data: []), now: 0) == [.replySetReport(requestID: 2, error: 5)])
    #expect(hub.handle(.setReport(requestID: 3, reportID: 1, type: .output, data: []), now: 0) == [.replySetReport(requestID: 3, error: 22)])
    #expect(hub.set(.gyroscope, now: 0, requestID: 4).last == .replySetReport(requestID: 4, error: 0))
}

@Test func recordingEndsOnceWithoutLoopAndRestartsWithLoop() throws {
    var hub = try makeHub(count: 10, gyro: false)
    var actions = hub.set(.accelerometer, now: 0) + hub.advance(to: 1_000 * ms)
    #expect(decodeInputs(actions).count == 10)
    #expect(actions.filter { $0 == .recordingEnded }.count == 1)
    actions = hub.advance(to: 2_000 * ms)
    #expect(actions.isEmpty && hub.ended)

    var looping = try makeHub(count: 10, gyro: false, loop: true)
    let inputs = decodeInputs(looping.set(.accelerometer, now: 0) + looping.advance(to: 245 * ms))
    #expect(inputs.map(\.raw.x) == (0..<25).map { accelX($0 % 10) })
    #expect(looping.sensors[0].counters.loops == 2 && !looping.ended)
}

@Test func sourceInterpolatesAndRejectsUnplayableRecordings() throws {
    let s = try SampleSource(samples: rampSamples(count: 3), hasGyro: true)
    #expect(s.nativeInterval == 10 * ms && s.lastTime == 20 * ms && s.period == 30 * ms)
    #expect(s.value(.accelerometer, at: 15 * ms).x == 1.5)
    #expect(s.value(.gyroscope, at: 20 * ms).z == 0.02)
    #expect(s.value(.accelerometer, at: 99 * ms).x == 2)
    #expect(throws: SampleSource.Problem.self) { try SampleSource(samples: rampSamples(count: 1), hasGyro: false) }
    var bad = rampSamples(count: 3)
    bad[2].timestamp = bad[1].timestamp
    #expect(throws: SampleSource.Problem.self) { try SampleSource(samples: bad, hasGyro: false) }
}

@Test func rawConversionRoundsAndSaturates() {
    let a = EmulatedSensorKind.accelerometer
    #expect(a.raw(Vector3(9.80665, -9.80665e-3, 0.004)) == RawVector(x: 1000, y: -1, z: 0))
    #expect(a.raw(Vector3(1e12, -1e12, .nan)) == RawVector(x: .max, y: .min, z: 0))
    #expect(EmulatedSensorKind.gyroscope.raw(Vector3(Double.pi, 0, 0)).x == 18000)
}
