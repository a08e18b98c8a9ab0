#if canImport(Glibc)
import Glibc
#endif

/// Which physical device an IIO device is, in terms that survive reboots and re-plugs: its name
/// plus the sysfs path of its parent device (the bus device the driver bound to, e.g.
/// `/devices/platform/soc/fe804000.i2c/i2c-1/1-006a`) and its `label` where the driver gives one.
/// `iio:deviceN` numbers are handed out in probe order and change; two identical IMUs share a
/// name but never a parent path.
///
/// Paths also carry enumeration counters the kernel hands out anew at every plug-in: a HID
/// device's instance (`0003:046D:C52B.0005`) and an automatic platform device id
/// (`HID-SENSOR-200073.3.auto`). ``stableParent`` drops them, so that a re-plugged hub matches
/// (``matches(_:)``); the exact path is preferred when both are there.
public struct DeviceIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The IIO `name`.
    public var name: String
    /// The parent device's sysfs path below `/sys` (`/devices/...`), nil where unknown (remote
    /// contexts, no sysfs).
    public var parent: String?
    /// The IIO `label`, when the driver has one.
    public var label: String?
    /// The kernel id when found (`iio:device0`): informational, never matched.
    public var id: String?

    /// Creates an identity.
    public init(name: String, parent: String?, label: String? = nil, id: String? = nil) {
        self.name = name
        self.parent = parent
        self.label = label
        self.id = id
    }

    /// ``parent`` without the kernel's enumeration counters: a HID instance suffix
    /// (`BBBB:VVVV:PPPP.NNNN` → `BBBB:VVVV:PPPP`) and an automatic platform id (`NAME.N.auto` →
    /// `NAME.auto`).
    public var stableParent: String? { parent.map(Self.stable) }

    /// `path` without enumeration counters (see ``stableParent``).
    public static func stable(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { component -> Substring in
            let c = component
            // HID: four hex digits, ':', four, ':', four, '.', four.
            let parts = c.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 2, parts[1].count == 4, parts[1].allSatisfy(\.isHexDigit) {
                let ids = parts[0].split(separator: ":", omittingEmptySubsequences: false)
                if ids.count == 3, ids.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }) { return parts[0] }
            }
            // Platform devices registered with PLATFORM_DEVID_AUTO: NAME.N.auto.
            if parts.count >= 3, parts.last == "auto", let n = parts.dropLast().last, !n.isEmpty, n.allSatisfy(\.isNumber) {
                return Substring(parts.dropLast(2).joined(separator: ".") + ".auto")
            }
            return c
        }.joined(separator: "/")
    }

    /// How well `other` (a device found now) matches this identity (one recorded before).
    public enum Match: Int, Comparable, Sendable {
        /// Another device.
        case none
        /// Same name and label, same parent once enumeration counters are dropped.
        case stable
        /// Same name, label and parent path.
        case exact

        public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    /// How well `other` matches this identity: names and labels must be equal; parents equal
    /// (exact) or equal without counters (stable); without a parent on either side, the name and
    /// label alone (exact).
    public func matches(_ other: DeviceIdentity) -> Match {
        guard name == other.name, label == other.label else { return .none }
        guard let p = parent, let q = other.parent else { return .exact }
        if p == q { return .exact }
        return Self.stable(p) == Self.stable(q) ? .stable : .none
    }

    /// The device among `candidates` this identity names: the single best match (an exact match
    /// wins over stable ones).
    /// - Returns: the index in `candidates`, or why none can be chosen.
    public func find(in candidates: [DeviceIdentity]) -> Result<Int, LookupFailure> {
        let scored = candidates.enumerated().map { ($0.offset, matches($0.element)) }.filter { $0.1 != .none }
        guard let best = scored.map(\.1).max() else { return .failure(.absent) }
        let winners = scored.filter { $0.1 == best }
        guard winners.count == 1 else { return .failure(.ambiguous(winners.map { candidates[$0.0] })) }
        return .success(winners[0].0)
    }

    /// Why ``find(in:)`` chose nothing.
    public enum LookupFailure: Error, Hashable, Sendable {
        /// No device has this name (and label and parent).
        case absent
        /// Several match equally well.
        case ambiguous([DeviceIdentity])
    }

    /// A `--device` selector: `NAME`, `NAME@PARENT` (a parent path or its last components, e.g.
    /// `lsm6dsx@i2c-1/1-006a`) or an id (`iio:device0`).
    public struct Selector: Hashable, Sendable {
        /// The name, label or id given.
        public var name: String
        /// The parent path or its end, when given after `@`.
        public var parent: String?

        /// Parses `NAME[@PARENT]`.
        public init(_ text: String) {
            if let at = text.lastIndex(of: "@"), at != text.startIndex {
                name = String(text[..<at])
                let p = String(text[text.index(after: at)...])
                parent = p.isEmpty ? nil : p
            } else {
                name = text
                parent = nil
            }
        }

        /// Whether `identity` is selected: the name, label or id equals ``name``, and the parent,
        /// when given, is the identity's parent or ends with `/` + it (exactly or without counters).
        public func selects(_ identity: DeviceIdentity) -> Bool {
            guard identity.name == name || identity.label == name || identity.id == name else { return false }
            guard let want = parent else { return true }
            guard let have = identity.parent else { return false }
            func ends(_ path: String, _ tail: String) -> Bool {
                let t = tail.hasPrefix("/") ? tail : "/" + tail
                return path == tail || path.hasSuffix(t)
            }
            return ends(have, want) || ends(DeviceIdentity.stable(have), DeviceIdentity.stable(want))
        }
    }

    /// `name=accel_3d parent=/devices/... label=- id=iio:device0`: the recording header's
    /// `device.N` value (spaces and `%` in a part are written `%20`, `%25`).
    public var headerValue: String {
        func enc(_ s: String?) -> String {
            guard let s, !s.isEmpty else { return "-" }
            var out = ""
            for ch in s {
                switch ch {
                case "%": out += "%25"
                case " ": out += "%20"
                default: out.append(ch)
                }
            }
            return out
        }
        return "name=\(enc(name)) parent=\(enc(parent)) label=\(enc(label)) id=\(enc(id))"
    }

    /// `accel_3d at /devices/... (label ...)`.
    public var description: String {
        var s = name
        if let label { s += " (label \(label))" }
        s += " at " + (parent ?? "an unknown parent")
        return s
    }

    // MARK: sysfs

    /// The identity of the local IIO device `id` named `name`, read from sysfs: the parent is the
    /// device's `device` link when it has one, else the directory above its own
    /// (`/sys/devices/.../iio:deviceN` → `/devices/...`).
    public static func local(id: String, name: String, label: String?, sysfsRoot: String = AccessProbe.sysfsRoot) -> DeviceIdentity {
        let dir = "\(sysfsRoot)/\(id)"
        var parent: String?
        if let link = realPath(dir + "/device") {
            parent = link
        } else if let own = realPath(dir), let slash = own.lastIndex(of: "/") {
            parent = String(own[..<slash])
        }
        if let p = parent, p.hasPrefix("/sys/") { parent = String(p.dropFirst(4)) }
        return DeviceIdentity(name: name, parent: parent, label: label, id: id)
    }

    /// `realpath(3)` of `path`, nil when it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}

extension SensorDescription {
    /// The device's identity: from sysfs for a local device (`local: true`), else its name and label.
    public func identity(local: Bool) -> DeviceIdentity {
        local ? DeviceIdentity.local(id: id, name: name, label: label) : DeviceIdentity(name: name, parent: nil, label: label, id: id)
    }
}
