import Testing
@testable import MotionEmulator

@Test func builderEncodesShortItemsLikeTheHIDSpec() {
    var b = HIDDescriptorBuilder()
    b.usagePage(0x20)
    b.usage(0x73)
    b.usage(0x0316)
    b.unitExponent(-3)
    b.unitExponent(-6)
    b.logicalMinimum(Int32.min)
    b.logicalMaximum(Int32.max)
    b.logicalMinimum(1)
    b.reportSize(64)
    b.beginCollection(.physical)
    b.feature(.dataVariable)
    b.endCollection()
    #expect(b.bytes == [0x05, 0x20, 0x09, 0x73, 0x0A, 0x16, 0x03, 0x55, 0x0D, 0x55, 0x0A,
                        0x17, 0x00, 0x00, 0x00, 0x80, 0x27, 0xFF, 0xFF, 0xFF, 0x7F, 0x15, 0x01,
                        0x75, 0x40, 0xA1, 0x00, 0xB1, 0x02, 0xC0])
}

@Test(arguments: [true, false])
func descriptorParsesBackIntoTheFieldsTheKernelDriversLookFor(hubTimestamps: Bool) throws {
    let layout = SensorHubLayout(sensors: [.accelerometer, .gyroscope], hubTimestamps: hubTimestamps)
    let fields = try HIDDescriptorParser.fields(layout.descriptor)
    for kind in EmulatedSensorKind.allCases {
        let mine = fields.filter { $0.reportID == kind.reportID }
        let physical = 0x20_0000 | UInt32(kind.usage)
        #expect(mine.allSatisfy { $0.physical == physical && $0.application == 0x20_0001 })
        let features = mine.filter { $0.type == .feature }
        // Properties in report order, each its own field: the driver matches usage[0] or the logical collection.
        #expect(features.map { $0.logical != 0 ? $0.logical : $0.usages[0] } ==
                [0x20_0316, 0x20_0319, 0x20_0201, 0x20_030E, 0x20_031B])
        #expect(features.map(\.size) == [8, 8, 8, 32, 32])
        #expect(features[1].usages == (0x850...0x855).map { 0x20_0000 | UInt32($0) })
        #expect(features[0].logicalMinimum == 1 && !features[0].isVariable && features[3].isVariable)
        // The report latency field must not be field 0 (hid_sensor_batch_mode_supported checks index > 0).
        #expect(features.firstIndex { $0.usages == [0x20_031B] }! > 0)
        #expect(features.last!.bitOffset + 32 == SensorHubLayout.featurePayloadSize * 8)
        let inputs = mine.filter { $0.type == .input }
        let axis = 0x20_0000 | UInt32(kind.axisUsage)
        #expect(inputs.prefix(3).map(\.usages) == [[axis], [axis + 1], [axis + 2]])
        #expect(inputs.prefix(3).allSatisfy { $0.size == 32 && $0.count == 1 && $0.unitExponent == Int(kind.unitExponent) && $0.logicalMinimum == Int32.min })
        if hubTimestamps {
            #expect(inputs.count == 4)
            #expect(inputs[3].usages == [0x20_0529] && inputs[3].size == 64 && inputs[3].unitExponent == -6)
        } else {
            #expect(inputs.count == 3)
        }
        #expect(inputs.last!.bitOffset + inputs.last!.size == layout.inputPayloadSize * 8)
    }
}

@Test func accelerometerOnlyLayoutHasNoGyroscopeCollection() throws {
    let fields = try HIDDescriptorParser.fields(SensorHubLayout(sensors: [.accelerometer], hubTimestamps: true).descriptor)
    #expect(Set(fields.map(\.physical)) == [0x20_0073])
}

@Test func parserRejectsTruncatedAndUnbalancedDescriptors() {
    #expect(throws: HIDDescriptorParser.ParseError.self) { try HIDDescriptorParser.fields([0x05, 0x20, 0x27, 0xFF]) }
    #expect(throws: HIDDescriptorParser.ParseError.self) { try HIDDescriptorParser.fields([0xA1, 0x01]) }
    #expect(throws: HIDDescriptorParser.ParseError.self) { try HIDDescriptorParser.fields([0xC0]) }
}

@Test func featureReportRoundTripsAndNullValuesLeaveProperties() {
    let layout = SensorHubLayout(sensors: [.accelerometer], hubTimestamps: false)
    let f = SensorFeatures(reportingState: 2, powerState: 2, sensorState: 2, reportIntervalMs: 20, reportLatencyMs: 1500)
    let bytes = layout.featureReport(.accelerometer, f)
    #expect(bytes.count == 1 + SensorHubLayout.featurePayloadSize)
    let start = SensorFeatures.initial(reportIntervalMs: 10)
    #expect(layout.applyFeatureReport(.accelerometer, bytes, to: start) == f)
    #expect(layout.applyFeatureReport(.accelerometer, Array(bytes.dropFirst()), to: start) == f)
    // Zeros (what the kernel sends for fields it never read) are HID null values, except the latency.
    let zeros = [UInt8](repeating: 0, count: SensorHubLayout.featurePayloadSize)
    var expected = f
    expected.reportLatencyMs = 0
    #expect(layout.applyFeatureReport(.accelerometer, zeros, to: f) == expected)
    #expect(layout.applyFeatureReport(.accelerometer, [1, 2, 3], to: f) == nil)
}
