extension Double {
    /// The value as short text: whole numbers below 10^15 in magnitude without a fraction (`100`,
    /// not `100.0`), anything else as Swift's shortest round-trip text (`0.5`, `1e+20`, `nan`).
    /// Used for JSON numbers, sysfs attribute values and messages.
    public var compactText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
