/// HID usages of the Sensors usage page (0x20) that the kernel's hid-sensor drivers understand
/// (names after `<linux/hid-sensor-ids.h>`). Values are the 16-bit usage IDs on page 0x20; the
/// kernel spells them as 32-bit extended usages `0x20_xxxx`.
public enum SensorUsage {
    /// The Sensors usage page.
    public static let page: UInt16 = 0x20
    /// Collection: sensor (the top-level application collection of a multi-sensor hub).
    public static let sensorCollection: UInt16 = 0x0001
    /// Motion: Accelerometer 3D (becomes platform device HID-SENSOR-200073, IIO `accel_3d`).
    public static let accelerometer3D: UInt16 = 0x0073
    /// Motion: Gyrometer 3D (HID-SENSOR-200076, IIO `gyro_3d`).
    public static let gyrometer3D: UInt16 = 0x0076
    /// Data: acceleration X axis (Y and Z follow at +1, +2).
    public static let accelerationX: UInt16 = 0x0453
    /// Data: angular velocity X axis (Y and Z follow at +1, +2).
    public static let angularVelocityX: UInt16 = 0x0457
    /// Data: timestamp; the driver stamps samples with it instead of their arrival time.
    public static let timestamp: UInt16 = 0x0529
    /// Property: reporting state (named array, selectors from ``reportingNoEvents``).
    public static let reportingState: UInt16 = 0x0316
    /// Property: power state (named array, selectors from ``powerUndefined``).
    public static let powerState: UInt16 = 0x0319
    /// Data: sensor state (named array, selectors from ``sensorStateUndefined``).
    public static let sensorState: UInt16 = 0x0201
    /// Property: report interval (milliseconds unless a unit says otherwise).
    public static let reportInterval: UInt16 = 0x030E
    /// Property: report latency in milliseconds (maximum time samples may wait in the hub FIFO).
    public static let reportLatency: UInt16 = 0x031B
    /// Reporting state selectors: no events, all events, threshold events, wake no events,
    /// wake all events, wake threshold events (0x0840...0x0845).
    public static let reportingNoEvents: UInt16 = 0x0840
    /// Power state selectors: undefined, D0 full power, D1 low power, D2 standby with wake,
    /// D3 sleep with wake, D4 power off (0x0850...0x0855).
    public static let powerUndefined: UInt16 = 0x0850
    /// Sensor state selectors: undefined, ready, not available, no data, initializing,
    /// access denied, error (0x0800...0x0806).
    public static let sensorStateUndefined: UInt16 = 0x0800
}
