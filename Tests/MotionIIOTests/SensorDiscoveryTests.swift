import Testing
@testable import MotionIIO
import MotionCore
import MotionSystem

/// Discovery through libiio's real XML backend (`iio_create_xml_context_mem`), with attribute
/// values from tables because the XML backend cannot read values.
struct SensorDiscoveryTests {
    @Test func lsm6dsxSplitsAccelAndGyroWithFIFOWatermark() throws {
        let ctx = try IIOContext(xml: XMLFixtures.lsm6dsx)
        #expect(ctx.isXML)
        let found = SensorDiscovery.discover(in: ctx, values: .table(XMLFixtures.lsm6dsxValues))
        #expect(found.map(\.name) == ["lsm6dsm_accel", "lsm6dsm_gyro"])
        let a = found[0], g = found[1]
        #expect(a.kind == .accelerometer && g.kind == .gyroscope)
        #expect(a.samplingFrequency == 104)
        #expect(a.samplingFrequencyAttribute == "sampling_frequency")
        #expect(a.availableFrequencies == [12.5, 26, 52, 104, 208, 416])
        #expect(a.hasTimestamp && a.isBufferCapable)
        #expect(a.timestampClock == "realtime")
        #expect(a.fifo.hasTimeout == false)
        #expect(a.fifo.enabled == true && a.fifo.watermarkMin == 1 && a.fifo.watermarkMax == 1365)
        #expect(a.fifo.isPresent)
        #expect(a.channel("accel_x")?.scale == 0.000598)
        #expect(a.channel("accel_x")?.format == ScanElementFormat(isBigEndian: false, isSigned: true, bits: 16, storageBits: 16, shift: 0))
        #expect(a.scanChannels.map(\.id) == ["accel_x", "accel_y", "accel_z", "timestamp"])
        #expect(g.channel("anglvel_z")?.scale == 0.000152716)
        #expect(a.stepCounter == nil)
    }

    @Test func hidSensorAccelHasHWFIFOTimeoutAndChannelRate() throws {
        let ctx = try IIOContext(xml: XMLFixtures.hidAccel3D)
        let found = SensorDiscovery.discover(in: ctx, values: .table(XMLFixtures.hidValues))
        #expect(found.count == 1)
        let s = try #require(found.first)
        #expect(s.name == "accel_3d" && s.kind == .accelerometer)
        #expect(s.samplingFrequency == 100)
        #expect(s.samplingFrequencyAttribute == "in_accel_sampling_frequency")
        #expect(s.availableFrequencies.isEmpty)
        #expect(s.fifo.hasTimeout && s.fifo.timeout == 0 && s.fifo.enabled == false)
        #expect(s.fifo.watermarkMax == nil)
        #expect(s.channel("accel_y")?.scale == 0.00980665)
        #expect(s.channel("accel_y")?.offset == 0)
        #expect(s.channel("accel_y")?.format?.storageBits == 32)
        #expect(s.timestampClock == "monotonic")
    }

    @Test func bma400HasStepCounterAnd12BitAxes() throws {
        let ctx = try IIOContext(xml: XMLFixtures.bma400)
        let s = try #require(SensorDiscovery.discover(in: ctx, values: .table(XMLFixtures.bma400Values)).first)
        #expect(s.id == "iio:device2")
        #expect(s.kind == .accelerometer)
        #expect(s.stepCounter?.steps == 1234)
        #expect(s.stepCounter?.enabled == true)
        #expect(s.stepCounter?.attributes.sorted() == ["en", "input"])
        #expect(s.availableFrequencies == [12.5, 25, 50, 100, 200, 400, 800])
        #expect(s.channel("accel_x")?.format?.bits == 12)
        #expect(s.fifo.isPresent == false)
        #expect(s.channel("temp")?.scale == nil)
        let activity = try #require(s.activity)
        #expect(activity.channels.map(\.modifier) == ["still", "walking", "running"])
        #expect(activity.channels.map(\.confidence) == [0, 100, 0])
        #expect(activity.current == "walking")
    }

    /// A device with only activity channels is found (kind activity-detector); unreadable values
    /// are nil, out-of-range ones clamped to the ABI's 0-100; the XML backend alone reads nothing.
    @Test func activityOnlyDeviceIsDiscovered() throws {
        let ctx = try IIOContext(xml: XMLFixtures.activityOnly)
        let s = try #require(SensorDiscovery.discover(in: ctx, values: .table(XMLFixtures.activityOnlyValues)).first)
        #expect(s.kind == .activityDetector && !s.hasAccel && !s.hasGyro && s.stepCounter == nil)
        #expect(s.activity?.channels.map(\.modifier) == ["still", "walking", "jogging", "running"])
        #expect(s.activity?.channels.map(\.confidence) == [0, 20, 100, nil])
        #expect(s.activity?.current == "jogging")
        let live = try #require(SensorDiscovery.discover(in: ctx).first)
        #expect(live.activity?.channels.allSatisfy { $0.confidence == nil } == true && live.activity?.current == nil)
        // The activity to report: a readable one, preferring a captured device.
        let bma = try #require(SensorDiscovery.discover(in: try IIOContext(xml: XMLFixtures.bma400), values: .table(XMLFixtures.bma400Values)).first)
        #expect(SensorDescription.hardwareActivity(in: [s, bma], capturing: [bma])?.id == bma.id)
        #expect(SensorDescription.hardwareActivity(in: [s, bma], capturing: [])?.id == s.id)
        #expect(SensorDescription.hardwareActivity(in: [live], capturing: [live]) == nil)
    }

    @Test func xmlBackendHasNoValuesSoLiveSourceGivesNil() throws {
        let ctx = try IIOContext(xml: XMLFixtures.hidAccel3D)
        let s = try #require(SensorDiscovery.discover(in: ctx).first)
        #expect(s.samplingFrequency == nil)
        #expect(s.channel("accel_x")?.scale == nil)
        // The wrapper reports the libiio error with code and call.
        let dev = try #require(ctx.device(named: "accel_3d"))
        #expect(throws: SystemError.self) { try dev.readBufferAttribute("hwfifo_timeout") }
        do { _ = try dev.readBufferAttribute("hwfifo_timeout") } catch {
            #expect(error.errno == .notImplemented) // ENOSYS
            #expect(error.message?.isEmpty == false) // iio_strerror's text
            #expect(error.call == "iio_device_buffer_attr_read")
            #expect(error.subject == "iio:device0/buffer/hwfifo_timeout")
        }
    }

    @Test func nonMotionDevicesAreSkipped() throws {
        let ctx = try IIOContext(xml: XMLFixtures.lightOnly)
        #expect(ctx.devices.count == 1)
        #expect(SensorDiscovery.discover(in: ctx, values: .table([:])).isEmpty)
    }

    @Test func badXMLAndBadURIGiveSystemError() {
        #expect(throws: SystemError.self) { try IIOContext(xml: "<context") }
        do { _ = try IIOContext(uri: "xml:/nonexistent/file.xml") } catch {
            #expect(error.call == "iio_create_context_from_uri")
            #expect(error.errno.rawValue > 0)
            #expect(error.subject == "xml:/nonexistent/file.xml")
        }
    }

    @Test func wrappersExposeChannelsAndDevices() throws {
        let ctx = try IIOContext(xml: XMLFixtures.lsm6dsx)
        #expect(ctx.devices.count == 3)
        let d = try #require(ctx.device(named: "iio:device1"))
        #expect(d.name == "lsm6dsm_gyro")
        #expect(d.isBufferCapable)
        #expect(d.bufferAttributeNames == ["hwfifo_watermark_max"])
        let c = try #require(d.channel("anglvel_y"))
        #expect(c.index == 1 && c.isScanElement && !c.isOutput)
        #expect(c.attributeFilename("scale") == "in_anglvel_scale")
        #expect(ctx.device(named: "trigger0")?.isBufferCapable == false)
        #expect(ctx.device(named: "nope") == nil)
    }

    @Test func planFromDiscoveredDevices() throws {
        let ctx = try IIOContext(xml: XMLFixtures.hidAccel3D)
        let s = try #require(SensorDiscovery.discover(in: ctx, values: .table(XMLFixtures.hidValues)).first)
        let p = try CapturePlan.make(for: s, rate: 100, batching: .latency(seconds: 1), hasPollDescriptor: true)
        #expect(p.waitStrategy == .pollDrain && p.hwfifoTimeout == 1 && p.kernelWatermark == 1 && p.batchSamples == 100)
    }
}

/// Which hardware step counter the capture cross-checks against.
@Suite struct HardwarePedometerChoiceTests {
    @Test func readableEnabledCounterIsChosenPreferringACapturedDevice() throws {
        let bma = try #require(SensorDiscovery.discover(in: try IIOContext(xml: XMLFixtures.bma400), values: .table(XMLFixtures.bma400Values)).first)
        let hid = try #require(SensorDiscovery.discover(in: try IIOContext(xml: XMLFixtures.hidAccel3D)).first)
        #expect(SensorDescription.hardwarePedometer(in: [hid, bma], capturing: [hid])?.id == bma.id)
        #expect(SensorDescription.hardwarePedometer(in: [hid], capturing: [hid]) == nil)
        var disabled = bma
        disabled.stepCounter?.enabled = false
        #expect(SensorDescription.hardwarePedometer(in: [disabled], capturing: [disabled]) == nil)
        var unreadable = bma
        unreadable.stepCounter?.steps = nil
        #expect(SensorDescription.hardwarePedometer(in: [unreadable], capturing: []) == nil)
        var other = bma
        other.id = "iio:device9"
        #expect(SensorDescription.hardwarePedometer(in: [other, bma], capturing: [bma])?.id == bma.id)
        #expect(SensorDescription.hardwarePedometer(in: [other, bma], capturing: [hid])?.id == other.id)
    }
}
