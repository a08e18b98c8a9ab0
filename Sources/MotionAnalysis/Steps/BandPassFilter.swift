/// A fixed 4th-order IIR filter in transposed direct form II: the order-2 Butterworth band-pass
/// 0.5–2.5 Hz at the step counter's 25 Hz internal rate (coefficients from
/// `scipy.signal.butter(2, [0.5/12.5, 2.5/12.5], 'band')`). The band holds every step frequency
/// from slow walking to running while removing gravity and the second harmonic of slow steps.
struct BandPassFilter: Sendable {
    private static let b0 = 0.04613180209331292
    private static let b2 = -0.09226360418662584
    private static let b4 = 0.04613180209331292
    private static let a1 = -3.1747773194520503
    private static let a2 = 3.886581585010506
    private static let a3 = -2.1991232895058155
    private static let a4 = 0.49181223722257544
    private var z1 = 0.0, z2 = 0.0, z3 = 0.0, z4 = 0.0

    /// Filters one value. (b1 = b3 = 0.)
    /// - Complexity: O(1).
    @inline(__always)
    mutating func step(_ x: Double) -> Double {
        let y = Self.b0 * x + z1
        z1 = z2 - Self.a1 * y
        z2 = Self.b2 * x + z3 - Self.a2 * y
        z3 = z4 - Self.a3 * y
        z4 = Self.b4 * x - Self.a4 * y
        return y
    }

    /// Clears the filter memory.
    mutating func reset() { z1 = 0; z2 = 0; z3 = 0; z4 = 0 }
}
