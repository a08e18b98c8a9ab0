import Foundation
import MotionIIO
import Testing

/// A device is found again by its name, label and parent device, whatever its iio:deviceN and
/// however the kernel numbered the re-plugged hub.
@Suite struct DeviceIdentityTests {
    static let hub1 = "/devices/virtual/misc/uhid/0006:1209:0001.0005/HID-SENSOR-200073.2.auto"
    static let hub2 = "/devices/virtual/misc/uhid/0006:1209:0001.0006/HID-SENSOR-200073.4.auto"
    static let i2c = "/devices/platform/soc/fe804000.i2c/i2c-1/1-006a"

    @Test func enumerationCountersAreDropped() {
        #expect(DeviceIdentity.stable(Self.hub1) == "/devices/virtual/misc/uhid/0006:1209:0001/HID-SENSOR-200073.auto")
        #expect(DeviceIdentity.stable(Self.hub1) == DeviceIdentity.stable(Self.hub2))
        #expect(DeviceIdentity.stable(Self.i2c) == Self.i2c)
        #expect(DeviceIdentity.stable("/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/0003:046D:C52B.000A") == "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/0003:046D:C52B")
    }

    @Test func matchingPrefersTheExactParent() throws {
        let was = DeviceIdentity(name: "accel_3d", parent: Self.hub1, id: "iio:device0")
        #expect(was.matches(DeviceIdentity(name: "accel_3d", parent: Self.hub1, id: "iio:device3")) == .exact)
        #expect(was.matches(DeviceIdentity(name: "accel_3d", parent: Self.hub2)) == .stable)
        #expect(was.matches(DeviceIdentity(name: "gyro_3d", parent: Self.hub1)) == DeviceIdentity.Match.none)
        #expect(was.matches(DeviceIdentity(name: "accel_3d", parent: Self.hub1, label: "left")) == DeviceIdentity.Match.none)
        #expect(was.matches(DeviceIdentity(name: "accel_3d", parent: Self.i2c)) == DeviceIdentity.Match.none)
        let candidates = [DeviceIdentity(name: "accel_3d", parent: Self.hub2), DeviceIdentity(name: "accel_3d", parent: Self.hub1)]
        #expect(try was.find(in: candidates).get() == 1)
        #expect(try was.find(in: [candidates[0]]).get() == 0)
        // Two re-plugged identical hubs: equally good, not guessed.
        let twins = [DeviceIdentity(name: "accel_3d", parent: Self.hub2), DeviceIdentity(name: "accel_3d", parent: Self.hub2.replacingOccurrences(of: ".0006", with: ".0007"))]
        if case .failure(.ambiguous(let a)) = was.find(in: twins) { #expect(a.count == 2) } else { Issue.record("not ambiguous") }
        #expect(was.find(in: [DeviceIdentity(name: "gyro_3d", parent: Self.hub1)]) == .failure(.absent))
    }

    @Test func selectorsByNameParentIdOrLabel() {
        let left = DeviceIdentity(name: "lsm6dsx_accel", parent: Self.i2c, label: "wrist", id: "iio:device2")
        #expect(DeviceIdentity.Selector("lsm6dsx_accel").selects(left))
        #expect(DeviceIdentity.Selector("iio:device2").selects(left) && DeviceIdentity.Selector("wrist").selects(left))
        #expect(DeviceIdentity.Selector("lsm6dsx_accel@1-006a").selects(left))
        #expect(DeviceIdentity.Selector("lsm6dsx_accel@i2c-1/1-006a").selects(left))
        #expect(DeviceIdentity.Selector("lsm6dsx_accel@\(Self.i2c)").selects(left))
        #expect(!DeviceIdentity.Selector("lsm6dsx_accel@1-006b").selects(left))
        #expect(!DeviceIdentity.Selector("lsm6dsx_accel@06a").selects(left))  // whole path components only
        #expect(!DeviceIdentity.Selector("other@1-006a").selects(left))
        let s = DeviceIdentity.Selector("name@with@at@1-006a")
        #expect(s.name == "name@with@at" && s.parent == "1-006a")
    }

    @Test func theHeaderValueKeepsEveryPartOnOneLine() {
        let d = DeviceIdentity(name: "a b", parent: "/devices/x%y", label: nil, id: "iio:device0")
        #expect(d.headerValue == "name=a%20b parent=/devices/x%25y label=- id=iio:device0")
    }
}
