/// Finds motion devices in an ``IIOContext`` and describes them (``SensorDescription``).
///
/// Attribute values are read through an ``AttributeSource``: live from libiio, or from a table
/// (libiio's XML backend knows structure but answers every value read with `ENOSYS`, so tests
/// supply values keyed by sysfs path relative to the device directory's parent, e.g.
/// `iio:device0/in_accel_scale`, `iio:device0/buffer/hwfifo_timeout`).
public enum SensorDiscovery {
    /// Where attribute values come from.
    public struct AttributeSource {
        /// Returns the text of `path` (`DEVICE_ID/FILE` or `DEVICE_ID/buffer/FILE`), or nil.
        public var read: (IIODevice, AttributeRef) -> String?

        /// Reads through libiio (`iio_device_attr_read`, `iio_channel_attr_read`,
        /// `iio_device_buffer_attr_read`); unreadable attributes give nil.
        public static var live: AttributeSource { AttributeSource { device, ref in
            switch ref {
            case .device(let a): try? device.readAttribute(a)
            case .buffer(let a): try? device.readBufferAttribute(a)
            case .channel(let c, let a): try? c.readAttribute(a)
            }
        } }

        /// Values from a table keyed by ``AttributeRef/path(in:)``.
        public static func table(_ values: [String: String]) -> AttributeSource {
            AttributeSource { device, ref in values[ref.path(in: device)] }
        }
    }

    /// One attribute of a device.
    public enum AttributeRef {
        /// A device attribute (`sampling_frequency`).
        case device(String)
        /// A buffer attribute (`hwfifo_timeout`).
        case buffer(String)
        /// A channel attribute (`scale` of `accel_x`).
        case channel(IIOChannel, String)

        /// `DEVICE_ID/FILE`: `iio:device0/in_accel_scale`, `iio:device0/buffer/hwfifo_timeout`.
        public func path(in device: IIODevice) -> String {
            switch self {
            case .device(let a): "\(device.id)/\(a)"
            case .buffer(let a): "\(device.id)/buffer/\(a)"
            case .channel(let c, let a): "\(device.id)/\(c.attributeFilename(a) ?? "in_\(c.id)_\(a)")"
            }
        }
    }

    /// Describes every device with accelerometer, gyroscope, step-counter or activity channels.
    /// - Complexity: O(devices x channels) attribute reads.
    public static func discover(in context: IIOContext, values: AttributeSource = .live) -> [SensorDescription] {
        context.devices.compactMap { describe($0, values: values) }
    }

    /// Describes one device, or nil when it carries no motion channel.
    public static func describe(_ device: IIODevice, values: AttributeSource = .live) -> SensorDescription? {
        let channels = device.channels.filter { !$0.isOutput }
        let ids = Set(channels.map(\.id))
        let hasAccel = ["accel_x", "accel_y", "accel_z"].allSatisfy(ids.contains)
        let hasGyro = ["anglvel_x", "anglvel_y", "anglvel_z"].allSatisfy(ids.contains)
        let steps = channels.first { $0.id == "steps" || $0.id.hasPrefix("steps") }
        let activityChannels = channels.filter { $0.id.hasPrefix("activity_") && $0.id.count > "activity_".count }
        let kind: SensorDescription.Kind
        switch (hasAccel, hasGyro) {
        case (true, true): kind = .imu
        case (true, false): kind = .accelerometer
        case (false, true): kind = .gyroscope
        case (false, false):
            if steps != nil { kind = .stepCounter } else if !activityChannels.isEmpty { kind = .activityDetector } else { return nil }
        }
        func read(_ ref: AttributeRef) -> String? { values.read(device, ref) }

        var described: [SensorDescription.Channel] = []
        for c in channels {
            let attrs = c.attributeNames
            let motion = c.id.hasPrefix("accel") || c.id.hasPrefix("anglvel")
            described.append(SensorDescription.Channel(
                id: c.id,
                index: c.isScanElement ? c.index : nil,
                format: c.format,
                scale: motion && attrs.contains("scale") ? AttributeText.double(read(.channel(c, "scale"))) : nil,
                offset: motion && attrs.contains("offset") ? AttributeText.double(read(.channel(c, "offset"))) : nil,
                attributes: attrs))
        }

        // Sampling frequency: device attribute, or shared by the motion channels.
        let deviceAttrs = device.attributeNames
        var rate: Double?
        var rateAttr: String?
        var available: [Double] = []
        if deviceAttrs.contains("sampling_frequency") {
            rateAttr = "sampling_frequency"
            rate = AttributeText.double(read(.device("sampling_frequency")))
        } else if let c = channels.first(where: { ($0.id.hasPrefix("accel") || $0.id.hasPrefix("anglvel")) && $0.attributeNames.contains("sampling_frequency") }) {
            rateAttr = c.attributeFilename("sampling_frequency") ?? "sampling_frequency"
            rate = AttributeText.double(read(.channel(c, "sampling_frequency")))
        }
        if deviceAttrs.contains("sampling_frequency_available") {
            available = AttributeText.frequencies(read(.device("sampling_frequency_available")))
        } else if let c = channels.first(where: { $0.attributeNames.contains("sampling_frequency_available") }) {
            available = AttributeText.frequencies(read(.channel(c, "sampling_frequency_available")))
        }

        let bufferAttrs = Set(device.bufferAttributeNames)
        let fifo = SensorDescription.FIFO(
            hasTimeout: bufferAttrs.contains("hwfifo_timeout"),
            timeout: bufferAttrs.contains("hwfifo_timeout") ? AttributeText.double(read(.buffer("hwfifo_timeout"))) : nil,
            enabled: bufferAttrs.contains("hwfifo_enabled") ? AttributeText.bool(read(.buffer("hwfifo_enabled"))) : nil,
            watermarkMin: bufferAttrs.contains("hwfifo_watermark_min") ? AttributeText.int(read(.buffer("hwfifo_watermark_min"))) : nil,
            watermarkMax: bufferAttrs.contains("hwfifo_watermark_max") ? AttributeText.int(read(.buffer("hwfifo_watermark_max"))) : nil)

        var counter: SensorDescription.StepCounter?
        if let s = steps {
            let attrs = s.attributeNames
            counter = SensorDescription.StepCounter(
                attributes: attrs,
                steps: attrs.contains("input") ? AttributeText.int(read(.channel(s, "input"))) : nil,
                enabled: attrs.contains("en") ? AttributeText.bool(read(.channel(s, "en"))) : nil)
        }

        var activity: SensorDescription.Activity?
        if !activityChannels.isEmpty {
            activity = SensorDescription.Activity(channels: activityChannels.map { c in
                SensorDescription.Activity.Channel(
                    modifier: String(c.id.dropFirst("activity_".count)),
                    confidence: c.attributeNames.contains("input") ? AttributeText.int(read(.channel(c, "input"))).map { Swift.min(100, Swift.max(0, $0)) } : nil)
            })
        }

        return SensorDescription(
            id: device.id,
            name: device.name ?? device.id,
            label: device.label,
            kind: kind,
            channels: described,
            samplingFrequency: rate,
            samplingFrequencyAttribute: rateAttr,
            availableFrequencies: available,
            hasTimestamp: channels.contains { $0.id == "timestamp" && $0.isScanElement },
            timestampClock: deviceAttrs.contains("current_timestamp_clock") ? AttributeText.clock(read(.device("current_timestamp_clock"))) : nil,
            isBufferCapable: channels.contains { $0.isScanElement },
            fifo: fifo,
            stepCounter: counter,
            activity: activity)
    }
}
