import Foundation
import Testing
import MotionTestSupport
@testable import MotionCore

/// The bundled real walk (HAPT, 50 Hz, accel + gyro), as read.
private func bundledWalk() throws -> [Sample] {
    try Recording.read(path: TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path).samples
}

/// The plausibility rule's findings for `samples`, fed in chunks of `chunk`.
private func findings(_ samples: [Sample], rule: PlausibilityRule = PlausibilityRule(minimumRateHz: 12.5),
                      hasGyro: Bool = true, declared: Double? = nil, chunk: Int = 1000) -> [PlausibilityCheck.Finding] {
    var check = PlausibilityCheck(rule: rule, declaredRateHz: declared, hasGyro: hasGyro)
    var i = 0
    while i < samples.count {
        check.add(samples[i..<min(samples.count, i + chunk)])
        i += chunk
    }
    return check.findings
}

private func times(_ v: Vector3, _ k: Double) -> Vector3 { Vector3(v.x * k, v.y * k, v.z * k) }

private func scaled(_ samples: [Sample], accel: Double = 1, gyro: Double = 1, time: Double = 1) -> [Sample] {
    let t0 = samples.first?.timestamp ?? 0
    return samples.map { s in
        Sample(timestamp: t0 + Int64((Double(s.timestamp - t0) * time).rounded()), accel: times(s.accel, accel), gyro: times(s.gyro, gyro))
    }
}

/// The plausibility rule (docs/bad-input.md, "Plausibility"): each plausible mistake on a real
/// walk gets its named warning with the fix; the walk itself gets none.
struct PlausibilityCheckTests {
    @Test func theRealWalkPassesWhateverTheChunking() throws {
        let walk = try bundledWalk()
        #expect(findings(walk).isEmpty)
        #expect(findings(walk, chunk: 1).isEmpty)
    }

    /// What the rule finds, and the figures behind it, do not depend on the chunking (after the
    /// first ``PlausibilityCheck/denseSamples``, one sample in ``PlausibilityCheck/stride`` is
    /// taken by its index in the stream): three walks in a row, past the dense part.
    @Test func findingsDoNotDependOnTheChunking() throws {
        let walk = try bundledWalk()
        let span = walk.last!.timestamp - walk.first!.timestamp + 20_000_000
        let three = (0..<3).flatMap { k in walk.map { Sample(timestamp: $0.timestamp + Int64(k) * span, accel: $0.accel, gyro: $0.gyro) } }
        #expect(three.count > PlausibilityCheck.denseSamples * 2)
        let odd = scaled(three, accel: 1 / AccelerationUnit.standardGravityValue, gyro: 60, time: 1000)
        let reference = findings(odd, chunk: odd.count)
        #expect(reference.count == 3)
        for chunk in [1, 3, 7, 16, 1000, 4097] { #expect(findings(odd, chunk: chunk) == reference, "chunk \(chunk)") }
        var whole = PlausibilityCheck(rule: PlausibilityRule(minimumRateHz: 12.5), declaredRateHz: nil, hasGyro: true)
        var pieces = whole
        whole.add(three)
        for i in Swift.stride(from: 0, to: three.count, by: 13) { pieces.add(three[i..<min(three.count, i + 13)]) }
        #expect(whole.rateHz == pieces.rateHz && whole.gravityShare == pieces.gravityShare)
        #expect(abs(whole.rateHz! - 50) < 0.1 && whole.gravityShare > 0.6)
    }

    /// Issue 25, case 2: values in g read as m/s².
    @Test func valuesInGAreRecognised() throws {
        var rule = PlausibilityRule(minimumRateHz: 12.5)
        rule.columns = true
        let f = findings(scaled(try bundledWalk(), accel: 1 / AccelerationUnit.standardGravityValue), rule: rule)
        #expect(f.map(\.kind) == [.implausibleAcceleration])
        #expect(f.first?.message.contains("values look like g: add --accel-unit g") == true, "\(f)")
    }

    @Test func valuesInMilliGAreRecognised() throws {
        var rule = PlausibilityRule(minimumRateHz: 12.5)
        rule.columns = true
        let f = findings(scaled(try bundledWalk(), accel: 1000 / AccelerationUnit.standardGravityValue), rule: rule)
        #expect(f.first?.message.contains("values look like mg: add --accel-unit mg") == true, "\(f)")
    }

    /// Issue 25, case 4: raw counts (a layout without its SCALE).
    @Test func rawCountsAreRecognisedWithTheirScale() throws {
        var rule = PlausibilityRule(minimumRateHz: 12.5)
        rule.rawLayout = true
        let f = findings(scaled(try bundledWalk(), accel: 4096 / AccelerationUnit.standardGravityValue), rule: rule)
        let message = try #require(f.first?.message)
        #expect(message.contains("raw counts (about 4"), "\(message)")
        #expect(message.contains("SCALE in --layout"))
    }

    @Test func accelerationWithoutGravityIsRecognised() throws {
        let walk = try bundledWalk()
        let n = Double(walk.count)
        let sum = walk.reduce(Vector3.zero) { Vector3($0.x + $1.accel.x, $0.y + $1.accel.y, $0.z + $1.accel.z) }
        let mean = times(sum, 1 / n)
        let linear = walk.map { Sample(timestamp: $0.timestamp, accel: Vector3($0.accel.x - mean.x, $0.accel.y - mean.y, $0.accel.z - mean.z), gyro: $0.gyro) }
        let f = findings(linear)
        #expect(f.first?.message.contains("without gravity") == true, "\(f)")
    }

    /// Issue 25, case 3: milliseconds read as seconds, and as microseconds.
    @Test(arguments: [(1000.0, TimeUnit.seconds), (0.001, TimeUnit.microseconds)])
    func aWrongTimeUnitIsNamed(stretch: Double, given: TimeUnit) throws {
        var rule = PlausibilityRule(minimumRateHz: 12.5)
        rule.timeUnit = given
        let f = findings(scaled(try bundledWalk(), time: stretch), rule: rule)
        #expect(f.map(\.kind) == [.implausibleRate])
        #expect(f.first?.message.contains("time looks like milliseconds (50 Hz): --time-unit ms") == true, "\(f)")
    }

    /// A Bangle.js log at the app's 1 Hz poll interval; its nominal 12.5 Hz (and a little less) passes.
    @Test func aRateBelowTheMinimumIsFlaggedWithATolerance() throws {
        let walk = try bundledWalk()
        let at1Hz = scaled(walk, time: 50)
        let f = findings(at1Hz)
        #expect(f.map(\.kind) == [.implausibleRate])
        #expect(f.first?.message.contains("below the analyses' 12.5 Hz minimum") == true, "\(f)")
        #expect(findings(scaled(walk, time: 50 / 12.0)).isEmpty, "12 Hz is within the tolerance")
    }

    @Test func aRateFarFromTheDeclaredOneIsFlagged() throws {
        let walk = try bundledWalk()
        #expect(findings(walk, declared: 50).isEmpty)
        #expect(findings(walk, declared: 200).map(\.kind) == [.implausibleRate])
    }

    /// Degrees per second read as rad/s.
    @Test func aGyroscopeInDegreesIsRecognised() throws {
        var rule = PlausibilityRule(minimumRateHz: 12.5)
        rule.columns = true
        let f = findings(scaled(try bundledWalk(), gyro: 180 / Double.pi), rule: rule)
        #expect(f.map(\.kind) == [.implausibleRotation])
        #expect(f.first?.message.contains("values look like deg/s: add --gyro-unit deg/s") == true, "\(f)")
        #expect(findings(scaled(try bundledWalk(), gyro: 180 / Double.pi), hasGyro: false).isEmpty, "no gyroscope, no check")
    }

    /// Issue 25, case 5.
    @Test func anEmptyStreamIsNamed() {
        #expect(findings([]).map(\.kind) == [.emptyStream])
    }

    @Test func quantilesAreWithinABin() {
        var h = LogHistogram()
        for i in 1...1000 { h.add(Double(i)) }
        let median = try! #require(h.median)
        #expect(abs(median - 500) / 500 < 0.045, "\(median)")
        #expect(h.quantile(1) == 1000)
        #expect(LogHistogram().median == nil)
    }
}
