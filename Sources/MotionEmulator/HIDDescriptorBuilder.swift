/// Builds a HID report descriptor from short items (HID 1.11 §6.2.2), choosing the smallest
/// data size for each value.
///
/// ```swift
/// var b = HIDDescriptorBuilder()
/// b.usagePage(0x20); b.usage(0x73); b.beginCollection(.application) ... b.endCollection()
/// ```
public struct HIDDescriptorBuilder: Sendable {
    /// The descriptor bytes so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty descriptor.
    public init() {}

    /// Collection kinds (HID 1.11 §6.2.2.6).
    public enum CollectionKind: UInt8, Sendable {
        case physical = 0x00, application = 0x01, logical = 0x02
    }

    /// Main item flags used here: Data,Array,Abs = 0x00; Data,Var,Abs = 0x02.
    public enum MainFlags: UInt8, Sendable {
        case dataArray = 0x00, dataVariable = 0x02
    }

    // Item type codes.
    static let main: UInt8 = 0, global: UInt8 = 1, local: UInt8 = 2

    /// Appends one short item with an unsigned payload of the smallest size (0, 1, 2 or 4 bytes).
    mutating func item(tag: UInt8, type: UInt8, unsigned value: UInt32, minimumSize: Int = 0) {
        let size: Int
        if value == 0 && minimumSize == 0 { size = 0 }
        else if value <= 0xFF && minimumSize <= 1 { size = 1 }
        else if value <= 0xFFFF && minimumSize <= 2 { size = 2 }
        else { size = 4 }
        append(tag: tag, type: type, size: size, raw: value)
    }

    /// Appends one short item with a signed payload of the smallest size that holds it.
    mutating func item(tag: UInt8, type: UInt8, signed value: Int32) {
        let size: Int
        if value >= Int32(Int8.min) && value <= Int32(Int8.max) { size = 1 }
        else if value >= Int32(Int16.min) && value <= Int32(Int16.max) { size = 2 }
        else { size = 4 }
        append(tag: tag, type: type, size: size, raw: UInt32(bitPattern: value))
    }

    private mutating func append(tag: UInt8, type: UInt8, size: Int, raw: UInt32) {
        let code: UInt8 = size == 4 ? 3 : UInt8(size)
        bytes.append(tag << 4 | type << 2 | code)
        for i in 0..<size { bytes.append(UInt8(truncatingIfNeeded: raw >> (8 * UInt32(i)))) }
    }

    /// Global Usage Page.
    public mutating func usagePage(_ page: UInt16) { item(tag: 0x0, type: Self.global, unsigned: UInt32(page)) }
    /// Local Usage (16-bit usage ID on the current page).
    public mutating func usage(_ id: UInt16) { item(tag: 0x0, type: Self.local, unsigned: UInt32(id), minimumSize: 1) }
    /// Global Logical Minimum (signed).
    public mutating func logicalMinimum(_ v: Int32) { item(tag: 0x1, type: Self.global, signed: v) }
    /// Global Logical Maximum (signed).
    public mutating func logicalMaximum(_ v: Int32) { item(tag: 0x2, type: Self.global, signed: v) }
    /// Global Unit Exponent, encoded as a 4-bit two's-complement nibble (-8...7), the form the
    /// kernel's hid-core decodes.
    public mutating func unitExponent(_ e: Int8) {
        precondition(e >= -8 && e <= 7, "unit exponent out of nibble range")
        item(tag: 0x5, type: Self.global, unsigned: UInt32(UInt8(bitPattern: e) & 0x0F), minimumSize: 1)
    }
    /// Global Report Size in bits.
    public mutating func reportSize(_ bits: UInt8) { item(tag: 0x7, type: Self.global, unsigned: UInt32(bits)) }
    /// Global Report ID.
    public mutating func reportID(_ id: UInt8) { item(tag: 0x8, type: Self.global, unsigned: UInt32(id)) }
    /// Global Report Count.
    public mutating func reportCount(_ n: UInt8) { item(tag: 0x9, type: Self.global, unsigned: UInt32(n)) }
    /// Main Collection.
    public mutating func beginCollection(_ kind: CollectionKind) { item(tag: 0xA, type: Self.main, unsigned: UInt32(kind.rawValue), minimumSize: 1) }
    /// Main End Collection.
    public mutating func endCollection() { item(tag: 0xC, type: Self.main, unsigned: 0) }
    /// Main Input.
    public mutating func input(_ flags: MainFlags) { item(tag: 0x8, type: Self.main, unsigned: UInt32(flags.rawValue), minimumSize: 1) }
    /// Main Feature.
    public mutating func feature(_ flags: MainFlags) { item(tag: 0xB, type: Self.main, unsigned: UInt32(flags.rawValue), minimumSize: 1) }
}
