/// How ``RecordingWriter`` prints the values of one column whose header line declares the
/// channel's scale (`# channel.accel_x: m/s^2 scale=0.000598550`, the IIO `scale` attribute).
///
/// A device value is `raw × scale`. Computed in binary floating point that product usually needs
/// 16-17 significant digits to round-trip (`760 × 0.00059855` is `0.45489799999999997`), although
/// the device's resolution needs only the scale's decimals: the exact decimal `raw × scale` is
/// `0.454898`. When a value is within two ulps of `raw × scale` for an integer `raw`, the writer
/// prints that exact decimal (at most as many decimals as the scale has, trailing zeros dropped);
/// reading it back gives the double nearest to `raw × scale`, from which `raw` is recovered
/// exactly (`(value / scale).rounded()`). Other values are printed shortest-round-trip.
struct RecordingValueFormat: Sendable, Equatable {
    /// The scale as a double.
    let scale: Double
    /// The scale's digits as an integer: `scale = units / 10^decimals` exactly.
    let units: Int64
    /// Decimals of the scale as written (`0.000598550`: 9).
    let decimals: Int

    /// Reads `scale=<decimal>` from a channel description (`m/s^2 scale=0.000598550`).
    /// - Returns: nil when there is none, or it is not a plain positive decimal with at most
    ///   9 significant digits and 12 decimals (then values are printed shortest-round-trip).
    init?(channelDescription: String) {
        guard let token = channelDescription.split(separator: " ").first(where: { $0.hasPrefix("scale=") }) else { return nil }
        let text = token.dropFirst("scale=".count)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !text.isEmpty,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return nil }
        let decimals = parts.count == 2 ? parts[1].count : 0
        let digits = parts.joined()
        guard decimals <= 12, let units = Int64(digits), units > 0, units < 1_000_000_000,
              let scale = Double(text), scale > 0 else { return nil }
        self.scale = scale
        self.units = units
        self.decimals = decimals
    }

    /// The double nearest to the exact decimal `raw × scale` when `value` is a device value (within
    /// two ulps of `raw × scale` for an integer `raw`): what reading back the decimal
    /// ``appendDeviceValue(_:to:)`` prints gives, so that a value decoded from raw units (a raw IIO
    /// buffer) survives a round trip through the file exactly. Other values are returned as they are.
    /// - Complexity: O(1).
    func nearestDeviceValue(_ value: Double) -> Double {
        let r = (value / scale).rounded()
        guard r.isFinite, r.magnitude <= 2_147_483_648, decimals <= 22 else { return value }
        let raw = Int64(r)
        guard (Double(raw) * scale - value).magnitude <= 2 * value.ulp else { return value }
        let product = raw * units  // |raw| <= 2^31, units < 10^9: fits in Int64
        // Both operands exact (|product| < 2^53, 10^decimals <= 10^22): the division is correctly
        // rounded, i.e. the double nearest to the exact decimal.
        guard product.magnitude < (1 << 53) else { return value }
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        return Double(product) / power
    }

    /// Appends `value` as the exact decimal `raw × scale` when it is a device value (see the type),
    /// and returns true; returns false (appending nothing) otherwise.
    /// - Complexity: O(1).
    func appendDeviceValue(_ value: Double, to out: inout [UInt8]) -> Bool {
        let r = (value / scale).rounded()
        guard r.isFinite, r.magnitude <= 2_147_483_648 else { return false }
        let raw = Int64(r)
        guard (Double(raw) * scale - value).magnitude <= 2 * value.ulp else { return false }
        let product = raw * units  // |raw| <= 2^31, units < 10^9: fits in Int64
        if product < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = product.magnitude
        var places = decimals
        while places > 0 && magnitude % 10 == 0 {  // drop trailing zeros
            magnitude /= 10
            places -= 1
        }
        // The digits, with the point `places` from the end (a leading "0." when they are fewer),
        // written without a `String`.
        let width = DecimalDigits.count(magnitude)
        if places > 0, width <= places {
            out.append(UInt8(ascii: "0"))
            out.append(UInt8(ascii: "."))
            for _ in 0..<(places - width) { out.append(UInt8(ascii: "0")) }
            DecimalDigits.append(magnitude, to: &out)
        } else if places > 0 {
            var power: UInt64 = 1
            for _ in 0..<places { power *= 10 }
            DecimalDigits.append(magnitude / power, to: &out)
            out.append(UInt8(ascii: "."))
            let fraction = magnitude % power
            for _ in 0..<(places - DecimalDigits.count(fraction)) { out.append(UInt8(ascii: "0")) }
            DecimalDigits.append(fraction, to: &out)
        } else {
            DecimalDigits.append(magnitude, to: &out)
        }
        return true
    }
}
