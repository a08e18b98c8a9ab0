/// A three-axis value in SI units (m/s² for acceleration, rad/s for angular velocity).
public struct Vector3: Hashable, Sendable {
    /// X component.
    public var x: Double
    /// Y component.
    public var y: Double
    /// Z component.
    public var z: Double

    /// Creates a vector from its three components.
    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The zero vector.
    public static let zero = Vector3(0, 0, 0)

    /// Euclidean length.
    @inlinable
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

    /// True when every component is finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}
