import MotionCore

extension FuzzTargets {
    /// The number parser: the input as one number field. The general scanner
    /// (``DecimalScanner/double(utf8:)``) accepts exactly the grammar
    /// `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?` and then equals the standard library's
    /// correctly rounded conversion bit for bit; the reader's fast field path (the field inside a
    /// row) gives the same value, or the error the value's rule gives; a `time_s` field reads or fails
    /// with a printable message.
    @Sendable public static func numberParser(_ data: [UInt8]) {
        let field = Array(data.prefix(64))
        let ours = DecimalScanner.double(utf8: field)
        if matchesGrammar(field), let reference = Double(String(decoding: field, as: UTF8.self)), reference.isFinite {
            FuzzInvariant.check(ours?.bitPattern == reference.bitPattern, "\(String(decoding: field, as: UTF8.self)): \(String(describing: ours)) vs \(reference)")
        } else {
            FuzzInvariant.check(ours == nil, "accepted outside the grammar: \(field)")
        }
        // The same bytes as a value field and as a time field of a recording.
        guard !field.contains(where: { $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) else { return }
        for (before, after) in [("timestamp_ns,accel_x,accel_y,accel_z\n0,", ",0,0\n"), ("time_s,accel_x,accel_y,accel_z\n0,0,", ",0\n")] {
            let text = Array(before.utf8) + field + Array(after.utf8)
            let own = Array("# motionbatch-recording: 1\n".utf8)
            let bytes = before.hasPrefix("timestamp") ? own + text : text
            do {
                let samples = try Recording.readAll(bytes)
                FuzzInvariant.check(samples.count == 1, "one row, \(samples.count) samples")
                let v = before.hasPrefix("timestamp") ? samples[0].accel.x : samples[0].accel.y
                FuzzInvariant.check(ours != nil && ours!.bitPattern == v.bitPattern, "field path \(v) vs general \(String(describing: ours))")
            } catch let error as RecordingError {
                checkError(error)
                FuzzInvariant.check(ours == nil || !InputLimits.acceleration.contains(ours!), "a valid value refused: \(error)")
            } catch {
                FuzzInvariant.check(false, "unexpected error: \(error)")
            }
        }
        let time = Array("time_s,accel_x,accel_y,accel_z\n".utf8) + field + Array(",0,0,0\n".utf8)
        do { _ = try Recording.readAll(time) } catch let error as RecordingError { checkError(error) } catch {
            FuzzInvariant.check(false, "unexpected error: \(error)")
        }
    }

    /// The grammar, checked independently of the parser.
    static func matchesGrammar(_ b: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let s = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - s
        }
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
        var n = digits()
        if i < b.count, b[i] == 0x2E {
            i += 1
            n += digits()
        }
        guard n > 0 else { return false }
        if i < b.count, b[i] == 0x65 || b[i] == 0x45 {
            i += 1
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == b.count
    }
}

extension Recording {
    /// Every sample of a recording in memory (through the reader's entry point, one thread).
    static func readAll(_ bytes: [UInt8]) throws -> [Sample] {
        let reader = try RecordingReader(input: .bytes(bytes, name: "fuzz.csv"), options: RecordingReadOptions(threads: 1))
        var samples: [Sample] = []
        var labels: [String?] = []
        while try reader.read(into: &samples, labels: &labels, maxSamples: 4096) > 0 {}
        return samples
    }
}
