import Testing
import MotionCore
@testable import WakeCost

// Capacity = FIFO bytes / frame bytes, with the frames the datasheets and Linux drivers give
// (docs/wake-cost.md section 3): header bytes, tags and timestamp words included.
@Test(arguments: [
    (FIFOChip.lsm6ds3, SensorSet.accel, 682, 12), (FIFOChip.lsm6ds3, [.accel, .gyro], 455, 18),   // 1365 data sets with a timestamp set per scan
    (FIFOChip.lsm6dso, .accel, 256, 14), (FIFOChip.lsm6dso, [.accel, .gyro], 170, 21),             // 512 tagged words, timestamp word per scan
    (FIFOChip.bmi323, .accel, 170, 12), (FIFOChip.bmi323, [.accel, .gyro], 170, 12),
    (FIFOChip.adxl372, .accel, 170, 6), (FIFOChip.adxl372, [.accel, .gyro], 170, 6),
    (FIFOChip.hidSensorHub, .accel, 341, 12), (FIFOChip.hidSensorHub, [.accel, .gyro], 170, 24),
    (FIFOChip.bmi160, .accel, 146, 7), (FIFOChip.bmi160, [.accel, .gyro], 78, 13),                  // header mode
    (FIFOChip.bmi270, .accel, 292, 7), (FIFOChip.bmi270, [.accel, .gyro], 157, 13),
    (FIFOChip.mpu6050, .accel, 170, 6), (FIFOChip.mpu6050, [.accel, .gyro], 85, 12),
    (FIFOChip.mpu9250, .accel, 85, 6), (FIFOChip.mpu9250, [.accel, .gyro], 42, 12),
    (FIFOChip.icm20948, .accel, 85, 6), (FIFOChip.icm20948, [.accel, .gyro], 42, 12),
    (FIFOChip.adxl345, .accel, 32, 6), (FIFOChip.adxl345, [.accel, .gyro], 32, 6),                  // 32 levels
    (FIFOChip.lis3dh, .accel, 32, 6), (FIFOChip.lis3dh, [.accel, .gyro], 32, 6),
    (FIFOChip.bma400, .accel, 146, 7), (FIFOChip.bma400, [.accel, .gyro], 146, 7),
    (FIFOChip.icm42688p, .accel, 256, 8), (FIFOChip.icm42688p, [.accel, .gyro], 128, 16),
] as [(FIFOChip, SensorSet, Int, Int)])
func capacityFollowsFromFIFOBytesAndEnabledChannels(chip: FIFOChip, sensors: SensorSet, capacity: Int, bytes: Int) {
    #expect(chip.capacity(sensors) == capacity)
    #expect(chip.bytesPerScan(sensors) == bytes)
}

@Test func everyBuiltInChipIsValidNamedOnceAndCited() throws {
    #expect(Set(FIFOChip.builtIn.map(\.name)).count == FIFOChip.builtIn.count)
    for c in FIFOChip.builtIn {
        try c.validate(file: "<built-in>")
        #expect(!c.source.isEmpty && !c.frameLayout.isEmpty && !c.linuxDriver.isEmpty, "\(c.name) lacks its citation")
        #expect(FIFOChip.builtIn(named: c.name.lowercased()) == c)
    }
    // Every chip the issue names is there.
    for name in ["BMI160", "BMI270", "MPU-6050", "MPU-9250", "ICM-20948", "ADXL345", "LIS3DH", "LSM6DSO", "BMA400", "ICM-42688-P",
                 "LSM6DS3", "BMI323", "ADXL372", "HID-hub"] {
        #expect(FIFOChip.builtIn(named: name) != nil, "\(name) missing")
    }
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
    let chip = FIFOChip(name: "T", fifoBytes: 600, accelFrameBytes: 6, accelGyroFrameBytes: 12)
    let v = FIFOVerdict.evaluate(chip, WakeConfiguration(rateHz: rate, latencyS: latency))
    #expect(v.fits == fits)
    #expect(v.fits == !(latency * rate * 6 > 600))
}

@Test func lostSamplesAndOverflowTime() {
    // 200 Hz into 100 samples every 1 s: full after 0.5 s, 100 of every 200 lost.
    let chip = FIFOChip(name: "T", fifoBytes: 600, accelFrameBytes: 6, accelGyroFrameBytes: nil)
    let v = FIFOVerdict.evaluate(chip, WakeConfiguration(rateHz: 200, latencyS: 1))
    #expect(v.overflowAfterS == 0.5)
    #expect(v.lostSamplesPerHour == 100 * 3600)
}

@Test(arguments: [0.0, 10.0])
func softwareBufferingAndPerSampleNeverUseTheChipFIFO(latency: Double) {
    let v = FIFOVerdict.evaluate(.adxl372, WakeConfiguration(rateHz: 400, latencyS: latency, buffering: latency == 0 ? .hardware : .software))
    #expect(v.fits && v.lostSamplesPerHour == 0 && v.overflowAfterS == nil)
}

// The margin: a batch that fills more than 1 − margin of the FIFO is "tight" even though it fits.
@Test(arguments: [(0.0, 100.0, true), (0.2, 80.0, true), (0.2, 81.0, false), (0.5, 50.0, true), (0.5, 51.0, false)])
func marginKeepsAFractionOfTheFIFOFree(margin: Double, samples: Double, fits: Bool) {
    let chip = FIFOChip(name: "T", fifoBytes: 600, accelFrameBytes: 6, accelGyroFrameBytes: nil)
    let v = FIFOVerdict.evaluate(chip, WakeConfiguration(rateHz: samples, latencyS: 1))
    #expect(v.fits)
    #expect(abs(v.fillFraction - samples / 100) < 1e-12)
    #expect(v.fits(margin: margin) == fits)
    #expect(v.fullAfterS == 100 / samples)
}

@Test func chipProfileJSONIsReadAndChecked() throws {
    let good = #"{"name": "LSM6DSL", "fifo_bytes": 4096, "accel_frame_bytes": 12, "accel_gyro_frame_bytes": 18, "source": "DS11345", "linux_batches": true}"#
    let c = try FIFOChip.parseJSON(Array(good.utf8), file: "c.json")
    #expect(c.name == "LSM6DSL" && c.capacity(.accel) == 341 && c.capacity([.accel, .gyro]) == 227 && c.linuxBatches && !c.isAssumed)
    let accelOnly = try FIFOChip.parseJSON(Array(#"{"name": "A", "fifo_bytes": 192, "accel_frame_bytes": 6, "accel_gyro_frame_bytes": null}"#.utf8), file: "a.json")
    #expect(!accelOnly.hasGyro && accelOnly.capacity([.accel, .gyro]) == 32)
}

@Test(arguments: [
    (#"{"fifo_bytes": 10, "accel_frame_bytes": 6}"#, "name", "missing"),
    (#"{"name": "X", "fifo_bytes": 0, "accel_frame_bytes": 6}"#, "fifo_bytes", "must be in 1..."),
    (#"{"name": "X", "fifo_bytes": 4096, "accel_frame_bytes": 5000}"#, "accel_frame_bytes", "must be in 1...fifo_bytes"),
    (#"{"name": "X", "fifo_bytes": 4096, "accel_frame_bytes": 12, "accel_gyro_frame_bytes": 6}"#, "accel_gyro_frame_bytes", "must be in accel_frame_bytes"),
    (#"{"name": "X", "fifo_bytes": 4096.5, "accel_frame_bytes": 12}"#, "fifo_bytes", "whole number"),
    (#"{"name": "X", "fifo_bytes": 4096, "accel_frame_bytes": 12, "linux_batches": 1}"#, "linux_batches", "true or false"),
    (#"{"name": "X", "fifo_bytes": 4096, "accel_frame_bytes": 12, "fifo": 1}"#, "fifo", "unknown key"),
    (#"{"name": "A,B", "fifo_bytes": 4096, "accel_frame_bytes": 12}"#, "name", "no comma"),
    (#"{"name": "X", "fifo_bytes": 1e300, "accel_frame_bytes": 12}"#, "fifo_bytes", "count 1e+300 is out of range"),
    (#"{"name": "X", "fifo_bytes": 1.5, "accel_frame_bytes": 12}"#, "fifo_bytes", "whole number"),
] as [(String, String, String)])
func badChipProfilesNameFileAndKey(json: String, key: String, problem: String) {
    #expect {
        _ = try FIFOChip.parseJSON(Array(json.utf8), file: "chip.json")
    } throws: { error in
        guard let e = error as? WakeCostError else { return false }
        return e.file == "chip.json" && e.key == key && e.problem.contains(problem)
    }
}
