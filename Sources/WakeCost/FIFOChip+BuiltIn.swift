/// The built-in chips. Each figure is the datasheet's FIFO size and the frame the Linux driver
/// stores per scan; docs/wake-cost.md section 3 tabulates them with the same sources and says
/// where a datasheet is ambiguous.
extension FIFOChip {
    /// ST LSM6DS3: 8 KiB FIFO of 6-byte data sets. The Linux driver stores the hardware timestamp
    /// as one more data set per pattern, so an accelerometer scan takes 12 bytes and an
    /// accelerometer + gyroscope scan 18 (1365 data sets: 682 or 455 scans).
    public static let lsm6ds3 = FIFOChip(
        name: "LSM6DS3", fifoBytes: 8192, accelFrameBytes: 12, accelGyroFrameBytes: 18,
        frameLayout: "6-byte data set per sensor + 6-byte timestamp data set per scan",
        source: "ST LSM6DS3 datasheet DocID026899 and AN4650, section 'FIFO' ('smart FIFO of up to 8 kbyte'); layout: Linux st_lsm6dsx_buffer.c (hw timestamp as the 4th FIFO data set, max_fifo_size = 1365 data sets)",
        linuxDriver: "st_lsm6dsx: FIFO watermark interrupt", linuxBatches: true)

    /// ST LSM6DSO / LSM6DSOX: 512 tagged FIFO words of 7 bytes (1 tag + 6 data: the datasheet's
    /// "3 kbyte" counts the data bytes only). The Linux driver batches one timestamp word per
    /// batch period, so a scan takes 2 words (accelerometer) or 3 (with the gyroscope).
    public static let lsm6dso = FIFOChip(
        name: "LSM6DSO", fifoBytes: 512 * 7, accelFrameBytes: 2 * 7, accelGyroFrameBytes: 3 * 7,
        frameLayout: "7-byte tagged word (1 tag + 6 data) per sensor + one timestamp word per scan",
        source: "ST LSM6DSO datasheet DS12140 (LSM6DSOX: DS12814), section 'FIFO' (up to 3 kbyte of data; each word 1 tag byte + 6 data bytes); layout: Linux st_lsm6dsx (max_fifo_size = 512 words, timestamp batched at decimation 1)",
        linuxDriver: "st_lsm6dsx: FIFO watermark interrupt", linuxBatches: true)

    /// Bosch BMI323: 2 KiB FIFO of 16-bit words; the Linux driver always stores 6-word
    /// accelerometer + gyroscope frames (12 bytes) whatever is enabled.
    public static let bmi323 = FIFOChip(
        name: "BMI323", fifoBytes: 2048, accelFrameBytes: 12, accelGyroFrameBytes: 12,
        frameLayout: "6 words: accel x/y/z + gyro x/y/z, always both",
        source: "Bosch BMI323 datasheet BST-BMI323-DS000, section 'FIFO' (2 kB); layout: Linux bmi323.h (BMI323_FIFO_LENGTH_IN_BYTES 2048, BMI323_FIFO_FRAME_LENGTH 6 words)",
        linuxDriver: "bmi323: FIFO watermark interrupt", linuxBatches: true)

    /// Analog Devices ADXL372: 512 samples of one axis (16 bit), i.e. 170 x/y/z sets.
    public static let adxl372 = FIFOChip(
        name: "ADXL372", fifoBytes: 1024, accelFrameBytes: 6, accelGyroFrameBytes: nil,
        frameLayout: "x, y, z: 3 × 16-bit FIFO samples",
        source: "Analog Devices ADXL372 data sheet, section 'FIFO' (512 samples); Linux adxl372.c: '170 sample sets of concurrent 3-axis data'",
        linuxDriver: "adxl372: FIFO watermark interrupt", linuxBatches: true)

    /// A HID sensor hub: the buffer is hub-firmware defined; ASSUMED 4 KiB with 32-bit values.
    public static let hidSensorHub = FIFOChip(
        name: "HID-hub", fifoBytes: 4096, accelFrameBytes: 12, accelGyroFrameBytes: 24,
        frameLayout: "3 × 32-bit values per sensor (the hid-sensor report fields)",
        source: "ASSUMED: HID sensor usages define report latency, not a FIFO size; give yours with --hid-fifo-bytes",
        linuxDriver: "hid-sensor-hub: report latency (buffer/hwfifo_timeout)", linuxBatches: true, isAssumed: true)

    /// Bosch BMI160: 1 KiB FIFO; in header mode (Bosch's default) a frame is a 1-byte header plus
    /// 6 bytes per sensor: 7 or 13 bytes. (Headerless mode: 6 or 12.)
    public static let bmi160 = FIFOChip(
        name: "BMI160", fifoBytes: 1024, accelFrameBytes: 7, accelGyroFrameBytes: 13,
        frameLayout: "header mode: 1-byte header + 6 bytes per sensor",
        source: "Bosch BMI160 data sheet BST-BMI160-DS000-07 rev 0.8, section 2.5 'FIFO' (1024 bytes; header and headerless frames)",
        linuxDriver: "bmi160: reads the data registers on every data-ready interrupt (FIFO unused)", linuxBatches: false)

    /// Bosch BMI270: 2 KiB FIFO, frames as the BMI160's (header mode: 7 or 13 bytes).
    public static let bmi270 = FIFOChip(
        name: "BMI270", fifoBytes: 2048, accelFrameBytes: 7, accelGyroFrameBytes: 13,
        frameLayout: "header mode: 1-byte header + 6 bytes per sensor",
        source: "Bosch BMI270 data sheet BST-BMI270-DS000-07 rev 1.5, key features ('2 KB on-chip FIFO') and section 'FIFO' (header/headerless frames)",
        linuxDriver: "bmi270: reads the data registers on every data-ready interrupt (FIFO unused)", linuxBatches: false)

    /// InvenSense MPU-6050: 1 KiB FIFO, sensor registers written in order (6 bytes per sensor, no header).
    public static let mpu6050 = FIFOChip(
        name: "MPU-6050", fifoBytes: 1024, accelFrameBytes: 6, accelGyroFrameBytes: 12,
        frameLayout: "sensor data registers in register order, 6 bytes per sensor, no header",
        source: "InvenSense MPU-6000/MPU-6050 Product Specification PS-MPU-6000A-00 rev 3.4, section 7.17 'FIFO' (1024 bytes)",
        linuxDriver: "inv_mpu6050: drains the FIFO on every data-ready interrupt (one interrupt per sample)", linuxBatches: false)

    /// InvenSense MPU-9250: 512-byte FIFO, same layout as the MPU-6050.
    public static let mpu9250 = FIFOChip(
        name: "MPU-9250", fifoBytes: 512, accelFrameBytes: 6, accelGyroFrameBytes: 12,
        frameLayout: "sensor data registers in register order, 6 bytes per sensor, no header",
        source: "InvenSense MPU-9250 Product Specification PS-MPU-9250A-01 rev 1.0, section 4.17 'FIFO' (512 bytes)",
        linuxDriver: "inv_mpu6050: drains the FIFO on every data-ready interrupt (one interrupt per sample)", linuxBatches: false)

    /// TDK InvenSense ICM-20948: 512-byte FIFO by the datasheet (one library author measured 4096
    /// bytes: see docs); same layout as the MPU-9250.
    public static let icm20948 = FIFOChip(
        name: "ICM-20948", fifoBytes: 512, accelFrameBytes: 6, accelGyroFrameBytes: 12,
        frameLayout: "sensor data registers in register order, 6 bytes per sensor, no header",
        source: "TDK InvenSense ICM-20948 datasheet DS-000189 rev 1.3, section 4.16 'FIFO' (512 bytes; 4096 measured by the ICM20948_WE library's author)",
        linuxDriver: "none in mainline (an IIO driver was posted to linux-iio in 2025)", linuxBatches: false)

    /// Analog Devices ADXL345: 32-level FIFO of x/y/z (16 bit each).
    public static let adxl345 = FIFOChip(
        name: "ADXL345", fifoBytes: 32 * 6, accelFrameBytes: 6, accelGyroFrameBytes: nil,
        frameLayout: "32 levels of x, y, z (3 × 16 bit)",
        source: "Analog Devices ADXL345 data sheet rev. G, section 'FIFO' (32-level FIFO)",
        linuxDriver: "adxl345: FIFO watermark interrupt (recent kernels; older ones read per sample)", linuxBatches: true)

    /// ST LIS3DH: 32-level FIFO of 10-bit x/y/z (read as 16-bit words).
    public static let lis3dh = FIFOChip(
        name: "LIS3DH", fifoBytes: 32 * 6, accelFrameBytes: 6, accelGyroFrameBytes: nil,
        frameLayout: "32 levels of x, y, z (10 bit, read as 3 × 16 bit)",
        source: "ST LIS3DH datasheet DocID17530 rev 2, section 5.1 'FIFO' ('32-level FIFO for each of the three output channels')",
        linuxDriver: "st_accel: reads the data registers on every data-ready interrupt (FIFO unused)", linuxBatches: false)

    /// Bosch BMA400: 1 KiB FIFO of frames with a 1-byte header and 6 bytes of 12-bit x/y/z
    /// (8-bit mode: 3). Sensor-time frames are generated on read, not stored.
    public static let bma400 = FIFOChip(
        name: "BMA400", fifoBytes: 1024, accelFrameBytes: 7, accelGyroFrameBytes: nil,
        frameLayout: "1-byte header + 6 bytes (12-bit x, y, z)",
        source: "Bosch BMA400 data sheet BST-BMA400-DS000, section 4.4 'FIFO' (1024 bytes; frames of a header + 1-6 data bytes)",
        linuxDriver: "bma400: reads the data registers on every data-ready interrupt (FIFO unused)", linuxBatches: false)

    /// TDK InvenSense ICM-42688-P: 2 KiB FIFO of packets: 8 bytes for one sensor (header, 6 data,
    /// temperature), 16 for accelerometer + gyroscope (plus a 2-byte timestamp).
    public static let icm42688p = FIFOChip(
        name: "ICM-42688-P", fifoBytes: 2048, accelFrameBytes: 8, accelGyroFrameBytes: 16,
        frameLayout: "packet 1 (8 B: header, 6 data, temp) or packet 3 (16 B: header, accel, gyro, temp, 2-byte timestamp)",
        source: "TDK InvenSense ICM-42688-P datasheet DS-000347, section 6 'FIFO' (2 kB; packet structures); layout: Linux inv_icm42600_buffer.c (1-sensor packet 8 B, 2-sensor packet 16 B, FIFO 2048 B)",
        linuxDriver: "inv_icm42600: FIFO watermark interrupt", linuxBatches: true)

    /// The built-in chips, in report order.
    public static let builtIn: [FIFOChip] = [
        lsm6ds3, lsm6dso, bmi323, adxl372, hidSensorHub, bmi160, bmi270, mpu6050, mpu9250, icm20948,
        adxl345, lis3dh, bma400, icm42688p,
    ]

    /// The built-in chip called `name` (case-insensitive), if any.
    public static func builtIn(named name: String) -> FIFOChip? {
        builtIn.first { $0.name.lowercased() == name.lowercased() }
    }
}
