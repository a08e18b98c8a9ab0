import Testing
import MotionCore
@testable import WakeCost

@Test(arguments: [
    (FIFOChip.lsm6ds3, SensorSet.accel, 1365, 6), (FIFOChip.lsm6ds3, [.accel, .gyro], 682, 12),
    (FIFOChip.bmi323, .accel, 170, 12), (FIFOChip.bmi323, [.accel, .gyro], 170, 12),
    (FIFOChip.adxl372, .accel, 170, 6), (FIFOChip.adxl372, [.accel, .gyro], 170, 6),
    (FIFOChip.hidSensorHub, .accel, 341, 12), (FIFOChip.hidSensorHub, [.accel, .gyro], 170, 24),
] as [(FIFOChip, SensorSet, Int, Int)])
func capacityFollowsFromFIFOBytesAndEnabledChannels(chip: FIFOChip, sensors: SensorSet, capacity: Int, bytes: Int) {
    #expect(chip.capacity(sensors) == capacity)
    #expect(chip.bytesPerScan(sensors) == bytes)
}

// Law: overflow is predicted exactly when latency × rate × bytes-per-sample exceeds the FIFO
// (its whole-sample bytes), for every built-in chip and sensor set over a grid that crosses
// each chip's limit.
@Test(arguments: FIFOChip.builtIn, [SensorSet.accel, [.accel, .gyro]])
func overflowExactlyWhenLatencyTimesRateTimesBytesExceedsFIFO(chip: FIFOChip, sensors: SensorSet) {
    let bps = chip.bytesPerScan(sensors)
    let usable = Double(chip.capacity(sensors) * bps)
    for rate in [12.5, 25, 26, 50, 52, 100, 104, 200, 400] {
        for latency in [0.01, 0.1, 0.5, 0.85, 1, 1.7, 2, 3.4, 5, 6.8, 10, 13.65, 30] {
            let v = FIFOVerdict.evaluate(chip, WakeConfiguration(rateHz: rate, latencyS: latency, buffering: .hardware, sensors: sensors))
            let exceeds = latency * rate * Double(bps) > usable
            #expect(v.fits == !exceeds, "\(chip.name) \(rate) Hz \(latency) s")
            #expect((v.lostSamplesPerHour > 0) == exceeds || rate * latency - Double(v.capacitySamples) < 1e-9)
        }
    }
}

// With a FIFO that holds a whole number of samples the law holds against the raw FIFO bytes,
// including at the boundary: 100 samples of 6 bytes in 600 bytes fit, one more overflows.
@Test(arguments: [(100.0, 1.0, true), (100.0, 1.01, false), (50.0, 2.0, true), (50.0, 2.02, false), (200.0, 0.5, true), (201.0, 0.5, false)])
func boundaryOfAWholeSampleFIFO(rate: Double, latency: Double, fits: Bool) {
    let chip = FIFOChip(name: "T", fifoBytes: 600, accelBytes: 6, gyroBytes: 6)
    let v = FIFOVerdict.evaluate(chip, WakeConfiguration(rateHz: rate, latencyS: latency))
    #expect(v.fits == fits)
    #expect(v.fits == !(latency * rate * 6 > 600))
}

@Test func lostSamplesAndOverflowTime() {
    // 200 Hz into 100 samples every 1 s: full after 0.5 s, 100 of every 200 lost.
    let chip = FIFOChip(name: "T", fifoBytes: 600, accelBytes: 6, gyroBytes: 0)
    let v = FIFOVerdict.evaluate(chip, WakeConfiguration(rateHz: 200, latencyS: 1))
    #expect(v.overflowAfterS == 0.5)
    #expect(v.lostSamplesPerHour == 100 * 3600)
}

@Test(arguments: [0.0, 10.0])
func softwareBufferingAndPerSampleNeverUseTheChipFIFO(latency: Double) {
    let v = FIFOVerdict.evaluate(.adxl372, WakeConfiguration(rateHz: 400, latencyS: latency, buffering: latency == 0 ? .hardware : .software))
    #expect(v.fits && v.lostSamplesPerHour == 0 && v.overflowAfterS == nil)
}
