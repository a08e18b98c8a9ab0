import Foundation

/// A tiny datasets folder in the layout of ../shared/datasets (manifest, Oxford walks with
/// per-step truth, Bangle.js walks, still and vehicle recordings), made of synthetic signals, so
/// that the evaluation and the `eval steps` command can be tested without the real datasets.
public enum SyntheticDatasets {
    /// A walk of `steps` steps every `period` s from 1 s on, sampled at `rateHz`, with a pulse of
    /// `size` m/s² per step; plain-CSV text and the truth file's text.
    public static func walk(steps: Int, period: Double = 0.55, rateHz: Double = 100, size: Double = 4) -> (csv: String, truth: String) {
        var csv = "time_s,accel_x,accel_y,accel_z\n"
        let seconds = 1 + Double(steps) * period + 2
        for i in 0..<Int(seconds * rateHz) {
            let t = Double(i) / rateHz
            let k = ((t - 1) / period).rounded(.down)
            let phase = t - 1 - k * period
            let pulse = t >= 1 && k < Double(steps) && phase < 0.2 ? size * sin(.pi * phase / 0.2) : 0
            csv += "\(t),0.3,\(0.2 * sin(.pi * t / period)),\(9.6 + pulse - size * 0.2 * 0.64)\n"
        }
        let truth = "time_s\n" + (0..<steps).map { "\(1 + Double($0) * period + 0.1)" }.joined(separator: "\n") + "\n"
        return (csv, truth)
    }

    /// `seconds` of a device at rest (sensor noise only) at `rateHz`, or with `shake` m/s² of
    /// irregular motion (a vehicle), deterministic.
    public static func still(seconds: Double, rateHz: Double = 12.5, shake: Double = 0) -> String {
        var csv = "time_s,accel_x,accel_y,accel_z\n"
        var state: UInt64 = 12345
        for i in 0..<Int(seconds * rateHz) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Double(state >> 11) / Double(1 << 53) - 0.5
            let t = Double(i) / rateHz
            csv += "\(t),\(0.02 * r),9.7,\(0.5 + shake * r)\n"
        }
        return csv
    }

    /// Writes the folder and returns its path. `vehicleShake` sets the vehicle recording's
    /// motion; with `vehicleRocks` it rocks like steps instead (a recording that gains false steps),
    /// with pulses of `rockSize` m/s².
    public static func write(vehicleShake: Double = 0.3, vehicleRocks: Bool = false, rockSize: Double = 3) throws -> String {
        let dir = try TestPaths.makeScratchDirectory(prefix: "motionbatch-datasets")
        let fm = FileManager.default
        for sub in ["steps/oxford", "steps/bangle"] { try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true) }
        func put(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: dir.appendingPathComponent(path)) }
        var manifest = "path,activity,steps_true\n"
        for (name, steps, period) in [("Samsung_Alice_Hard_InHand_1", 60, 0.55), ("Pixel_Bob_Hard_InHand_1", 50, 0.6)] {
            let w = walk(steps: steps, period: period)
            try put(w.csv, "steps/oxford/\(name).csv")
            try put(w.truth, "steps/oxford/\(name).steps.csv")
            manifest += "steps/oxford/\(name).csv,walking,\(steps)\n"
        }
        try put(walk(steps: 40, period: 0.6, rateHz: 12.5).csv, "steps/bangle/40.csv")
        manifest += "steps/bangle/40.csv,walking,40\n"
        try put(still(seconds: 60), "steps/bangle/0_static.csv")
        manifest += "steps/bangle/0_static.csv,still,0\n"
        try put(vehicleRocks ? walk(steps: 100, period: 0.7, rateHz: 12.5, size: rockSize).csv : still(seconds: 120, shake: vehicleShake), "steps/bangle/0_drive.csv")
        manifest += "steps/bangle/0_drive.csv,vehicle,0\n"
        try put(manifest, "manifest.csv")
        return dir.path
    }
}
