/// Reading a user's chip profile from JSON (`wakes --chips my-chip.json`).
///
/// Schema: `{"name": "LSM6DSL", "fifo_bytes": 4096, "accel_frame_bytes": 12,
///   "accel_gyro_frame_bytes": 18, "frame_layout": "...", "source": "datasheet DS..., section ...",
///   "linux_driver": "st_lsm6dsx", "linux_batches": true, "assumed": false}`.
/// `name`, `fifo_bytes` and `accel_frame_bytes` are required; `accel_gyro_frame_bytes` is absent
/// or null for an accelerometer without a gyroscope; the rest are optional (strings default to
/// empty, `linux_batches` to true, `assumed` to false). Unknown keys are errors.
extension FIFOChip {
    /// Keys a chip profile may contain.
    public static let jsonKeys: Set<String> = [
        "name", "fifo_bytes", "accel_frame_bytes", "accel_gyro_frame_bytes", "frame_layout", "source",
        "linux_driver", "linux_batches", "assumed",
    ]

    /// Parses and validates a chip profile from the bytes of a JSON file.
    /// - Parameter file: the file's name, used in error messages.
    /// - Throws: ``WakeCostError`` naming the file and key.
    public static func parseJSON(_ data: [UInt8], file: String) throws(WakeCostError) -> FIFOChip {
        let o = try JSONObject.parse(data, file: file)
        try o.rejectUnknownKeys(jsonKeys)
        guard let name = try o.string("name"), !name.isEmpty else {
            throw WakeCostError(file: file, key: "name", problem: "missing (required non-empty string)")
        }
        guard name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f && $0 != "," }) else {
            throw WakeCostError(file: file, key: "name", problem: "must be printable and contain no comma")
        }
        let chip = FIFOChip(
            name: name, fifoBytes: try o.count("fifo_bytes"),
            accelFrameBytes: try o.count("accel_frame_bytes"),
            accelGyroFrameBytes: try o.optionalCount("accel_gyro_frame_bytes"),
            frameLayout: try o.string("frame_layout") ?? "",
            source: try o.string("source") ?? "",
            linuxDriver: try o.string("linux_driver") ?? "",
            linuxBatches: try o.bool("linux_batches") ?? true,
            isAssumed: try o.bool("assumed") ?? false)
        try chip.validate(file: file)
        return chip
    }
}
