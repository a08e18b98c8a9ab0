/// The report layout of the virtual sensor hub: which sensors it has, whether input reports carry a
/// hub timestamp, the report descriptor, and encoders for its feature and input reports.
///
/// One application collection (Sensors page, usage 0x0001 "sensor collection") holds one physical
/// collection per sensor (hid-core gives the device to hid-sensor-hub when it sees a physical
/// collection on the Sensors page; hid-sensor-hub matches fields to sensors by their physical
/// collection). Each sensor has one report ID shared by its feature report and its input report:
///
/// - feature report (11 bytes after the ID): reporting state (u8 selector), power state (u8
///   selector), sensor state (u8 selector), report interval (u32 ms), report latency (u32 ms);
/// - input report: X, Y, Z as separate s32 fields, then optionally the hub timestamp (u64 µs,
///   usage 0x200529, unit exponent -6).
///
/// Selector fields are named arrays with logical minimum 1: value = selector index + 1, the
/// convention the kernel's hid-sensor drivers write (0 is a null value: no change).
public struct SensorHubLayout: Sendable, Equatable {
    /// The sensors, in descriptor order.
    public var sensors: [EmulatedSensorKind]
    /// Whether input reports carry the 64-bit hub timestamp.
    public var hubTimestamps: Bool

    /// Creates a layout.
    public init(sensors: [EmulatedSensorKind], hubTimestamps: Bool) {
        self.sensors = sensors
        self.hubTimestamps = hubTimestamps
    }

    /// Bytes of the feature report after the report ID.
    public static let featurePayloadSize = 11
    /// Bytes of the input report after the report ID.
    public var inputPayloadSize: Int { 12 + (hubTimestamps ? 8 : 0) }

    /// The sensor whose reports use `reportID`, if any.
    public func sensor(reportID: UInt8) -> EmulatedSensorKind? {
        sensors.first { $0.reportID == reportID }
    }

    /// The HID report descriptor.
    public var descriptor: [UInt8] {
        var b = HIDDescriptorBuilder()
        b.usagePage(SensorUsage.page)
        b.usage(SensorUsage.sensorCollection)
        b.beginCollection(.application)
        for kind in sensors {
            b.reportID(kind.reportID)
            b.usage(kind.usage)
            b.beginCollection(.physical)
            b.unitExponent(0)
            // Feature: three named arrays (8-bit selector, 1-based).
            for (prop, first, n) in [(SensorUsage.reportingState, SensorUsage.reportingNoEvents, 6),
                                     (SensorUsage.powerState, SensorUsage.powerUndefined, 6),
                                     (SensorUsage.sensorState, SensorUsage.sensorStateUndefined, 7)] {
                b.logicalMinimum(1)
                b.logicalMaximum(Int32(n))
                b.reportSize(8)
                b.reportCount(1)
                b.usage(prop)
                b.beginCollection(.logical)
                for k in 0..<n { b.usage(first + UInt16(k)) }
                b.feature(.dataArray)
                b.endCollection()
            }
            // Feature: report interval and report latency, u32 milliseconds (0 is null for the interval).
            b.logicalMinimum(1)
            b.logicalMaximum(Int32.max)
            b.reportSize(32)
            b.reportCount(1)
            b.usage(SensorUsage.reportInterval)
            b.feature(.dataVariable)
            b.logicalMinimum(0)
            b.usage(SensorUsage.reportLatency)
            b.feature(.dataVariable)
            // Input: one s32 field per axis.
            b.logicalMinimum(Int32.min)
            b.logicalMaximum(Int32.max)
            b.unitExponent(kind.unitExponent)
            for axis in 0..<3 {
                b.usage(kind.axisUsage + UInt16(axis))
                b.input(.dataVariable)
            }
            if hubTimestamps {
                b.logicalMinimum(0)
                b.unitExponent(-6)
                b.reportSize(64)
                b.usage(SensorUsage.timestamp)
                b.input(.dataVariable)
            }
            b.endCollection()
        }
        b.endCollection()
        return b.bytes
    }

    /// The feature report of `kind` in `features`: report ID then ``featurePayloadSize`` bytes.
    public func featureReport(_ kind: EmulatedSensorKind, _ f: SensorFeatures) -> [UInt8] {
        var out: [UInt8] = [kind.reportID, f.reportingState, f.powerState, f.sensorState]
        out.appendLittleEndian(f.reportIntervalMs)
        out.appendLittleEndian(f.reportLatencyMs)
        return out
    }

    /// The input report of `kind`: report ID, X, Y, Z (s32 LE) and the hub timestamp in µs when enabled.
    public func inputReport(_ kind: EmulatedSensorKind, _ v: RawVector, hubTimestampMicros: UInt64) -> [UInt8] {
        var out: [UInt8] = [kind.reportID]
        out.reserveCapacity(1 + inputPayloadSize)
        out.appendLittleEndian(UInt32(bitPattern: v.x))
        out.appendLittleEndian(UInt32(bitPattern: v.y))
        out.appendLittleEndian(UInt32(bitPattern: v.z))
        if hubTimestamps { out.appendLittleEndian(hubTimestampMicros) }
        return out
    }

    /// Applies a SET_REPORT payload (with or without the leading report ID) to `features`.
    /// Selector values outside their logical range and a zero interval are HID null values and
    /// leave the property unchanged; the sensor state is read-only.
    /// - Returns: the updated features, or nil when the payload has the wrong length.
    public func applyFeatureReport(_ kind: EmulatedSensorKind, _ data: [UInt8], to f: SensorFeatures) -> SensorFeatures? {
        var d = data[...]
        if d.count == Self.featurePayloadSize + 1 && d.first == kind.reportID { d = d.dropFirst() }
        guard d.count == Self.featurePayloadSize else { return nil }
        let b = Array(d)
        var out = f
        if (1...6).contains(b[0]) { out.reportingState = b[0] }
        if (1...6).contains(b[1]) { out.powerState = b[1] }
        let interval = UInt32(littleEndianBytes: b[3..<7])
        if interval >= 1 && interval <= UInt32(Int32.max) { out.reportIntervalMs = interval }
        let latency = UInt32(littleEndianBytes: b[7..<11])
        if latency <= UInt32(Int32.max) { out.reportLatencyMs = latency }
        return out
    }
}

extension Array where Element == UInt8 {
    /// Appends `v` in little-endian byte order.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ v: T) {
        var le = v.littleEndian
        Swift.withUnsafeBytes(of: &le) { append(contentsOf: $0) }
    }
}

extension UInt32 {
    /// Reads 4 little-endian bytes.
    init(littleEndianBytes b: ArraySlice<UInt8>) {
        var v: UInt32 = 0
        for (k, byte) in b.enumerated() { v |= UInt32(byte) << (8 * UInt32(k)) }
        self = v
    }
}
