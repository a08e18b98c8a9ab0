import MotionCore

/// The rotation (and scaling) that carries one recording's mean acceleration vector onto
/// another's: a still piece from another device is turned so that its gravity points where the
/// walk's does and has the walk's gravity magnitude (devices are calibrated differently), so
/// that splicing it between bouts adds no jump in orientation or magnitude.
struct GravityAlignment: Sendable {
    /// Row-major rotation matrix times the scale.
    private let m: (Vector3, Vector3, Vector3)

    /// The alignment of `from` onto `to` (both non-zero): the rotation about `from × to` by the
    /// angle between them (Rodrigues), scaled by |to| / |from|.
    init(from: Vector3, to: Vector3) {
        let a = from.magnitude, b = to.magnitude
        precondition(a > 0 && b > 0, "gravity vectors must not be zero")
        let u = Vector3(from.x / a, from.y / a, from.z / a), v = Vector3(to.x / b, to.y / b, to.z / b)
        let k = Vector3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        let s = k.magnitude, c = u.x * v.x + u.y * v.y + u.z * v.z
        let scale = b / a
        if s < 1e-12 {
            // Parallel: identity; antiparallel: a half turn about any axis orthogonal to u.
            if c > 0 {
                m = (Vector3(scale, 0, 0), Vector3(0, scale, 0), Vector3(0, 0, scale))
            } else {
                let w = abs(u.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
                let d = w.x * u.x + w.y * u.y + w.z * u.z
                let p = Vector3(w.x - d * u.x, w.y - d * u.y, w.z - d * u.z)
                let n = p.magnitude
                let e = Vector3(p.x / n, p.y / n, p.z / n)
                // R = 2 e eᵀ − I
                m = (Vector3(scale * (2 * e.x * e.x - 1), scale * 2 * e.x * e.y, scale * 2 * e.x * e.z),
                     Vector3(scale * 2 * e.y * e.x, scale * (2 * e.y * e.y - 1), scale * 2 * e.y * e.z),
                     Vector3(scale * 2 * e.z * e.x, scale * 2 * e.z * e.y, scale * (2 * e.z * e.z - 1)))
            }
            return
        }
        let e = Vector3(k.x / s, k.y / s, k.z / s)
        let t = 1 - c
        // R = c I + s [e]× + (1 − c) e eᵀ
        m = (Vector3(scale * (c + t * e.x * e.x), scale * (t * e.x * e.y - s * e.z), scale * (t * e.x * e.z + s * e.y)),
             Vector3(scale * (t * e.y * e.x + s * e.z), scale * (c + t * e.y * e.y), scale * (t * e.y * e.z - s * e.x)),
             Vector3(scale * (t * e.z * e.x - s * e.y), scale * (t * e.z * e.y + s * e.x), scale * (c + t * e.z * e.z)))
    }

    /// The aligned vector.
    func apply(_ a: Vector3) -> Vector3 {
        Vector3(m.0.x * a.x + m.0.y * a.y + m.0.z * a.z,
                m.1.x * a.x + m.1.y * a.y + m.1.z * a.z,
                m.2.x * a.x + m.2.y * a.y + m.2.z * a.z)
    }
}
