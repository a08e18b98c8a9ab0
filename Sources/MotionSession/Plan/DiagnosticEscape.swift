import MotionCore

/// Outside text (options, file names, device names) quoted for a message, its non-printable
/// bytes escaped (MotionCore's ``MotionCore/DiagnosticText``).
enum DiagnosticEscape {
    /// `"text"` with escapes.
    static func text(_ s: String) -> String { DiagnosticText.quoted(s, limit: 300) }
}
