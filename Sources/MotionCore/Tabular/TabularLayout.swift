/// Where a text recording keeps what MotionBatch needs, and how to turn it into SI units: the
/// time column and its unit, three acceleration columns (and three gyroscope columns) with the
/// factor that converts each to m/s² (rad/s), and an optional label column. Every text dialect
/// (phyphox, Sensor Logger, Bangle.js, `--columns`) describes its header with one; the same
/// ``TabularRowReader`` then reads the rows.
struct TabularLayout: Sendable, Equatable {
    /// The header's column names, in file order (for messages).
    var columnNames: [String]
    /// Index of the time column.
    var time: Int
    /// Its unit.
    var timeUnit: TimeUnit
    /// Indexes of the x, y, z acceleration columns.
    var accel: [Int]
    /// m/s² per file unit, per axis (a negative factor flips the axis).
    var accelScale: [Double]
    /// The rule the first three values obey (``InputLimits/angularRate`` for a gyroscope-only
    /// stream laid out in `accel`, see ``AlignedRows``).
    var accelRule: ValueRule = InputLimits.acceleration
    /// Indexes of the x, y, z gyroscope columns, if any.
    var gyro: [Int]?
    /// rad/s per file unit, per axis.
    var gyroScale: [Double] = [1, 1, 1]
    /// Index of a label column, if any.
    var label: Int?

    /// The sensors the rows carry.
    var sensors: SensorSet { gyro == nil ? .accel : [.accel, .gyro] }

    /// The number of fields a row needs (the largest index used, plus one).
    var neededFields: Int { ([time, label ?? 0] + accel + (gyro ?? [])).max()! + 1 }

    /// The name of column `index`, for messages.
    func name(_ index: Int) -> String { index < columnNames.count ? columnNames[index] : "column \(index + 1)" }
}
