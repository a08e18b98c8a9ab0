import MotionCore
@testable import MotionEvaluation
import Testing

/// The rotation and scaling that carries a still piece's gravity onto the walk's.
struct GravityAlignmentTests {
    static func close(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance && abs(a.z - b.z) < tolerance
    }

    static func dot(_ a: Vector3, _ b: Vector3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    @Test(arguments: [
        (Vector3(0, 0, 9.7), Vector3(1.2, -7.3, -6.6)),  // a general turn
        (Vector3(0, 0, 9.7), Vector3(0, 0, 9.9)),         // parallel: only the scale
        (Vector3(0, 0, 9.7), Vector3(0, 0, -9.9)),        // antiparallel: a half turn
        (Vector3(3, 4, 0), Vector3(-3, -4, 0.000001)),    // almost antiparallel
    ])
    func fromIsCarriedOntoToAndAnglesAreKept(from: Vector3, to: Vector3) {
        let a = GravityAlignment(from: from, to: to)
        #expect(Self.close(a.apply(from), to, 1e-6), "\(a.apply(from)) vs \(to)")
        // A rotation times a scale: lengths scale by |to|/|from|, angles stay.
        let k = to.magnitude / from.magnitude
        let u = Vector3(1, 2, -0.5), v = Vector3(-0.3, 0.1, 2)
        #expect(abs(a.apply(u).magnitude - k * u.magnitude) < 1e-9)
        #expect(abs(Self.dot(a.apply(u), a.apply(v)) - k * k * Self.dot(u, v)) < 1e-9)
    }
}
