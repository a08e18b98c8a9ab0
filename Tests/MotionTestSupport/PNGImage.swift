/// A minimal PNG decoder for tests (8-bit RGB/RGBA, non-interlaced, as Chromium's screenshots
/// are): chunk parsing, a small inflate (stored, fixed and dynamic Huffman blocks) and the five
/// scanline filters. Enough to look at a headless browser's pixels without outside libraries.
public struct PNGImage {
    /// Width and height in pixels.
    public let width: Int, height: Int
    /// RGBA bytes, row-major.
    public let rgba: [UInt8]

    /// The pixel at (x, y) as (r, g, b).
    public func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (rgba[i], rgba[i + 1], rgba[i + 2])
    }

    public struct DecodeError: Error, CustomStringConvertible { public let description: String }

    /// Decodes PNG bytes.
    public init(_ bytes: [UInt8]) throws {
        guard bytes.count > 8, Array(bytes[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else { throw DecodeError(description: "not a PNG") }
        var pos = 8, w = 0, h = 0, colourType = 0, idat: [UInt8] = []
        func be32(_ p: Int) -> Int { Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3]) }
        while pos + 8 <= bytes.count {
            let len = be32(pos)
            let type = String(decoding: bytes[(pos + 4)..<(pos + 8)], as: UTF8.self)
            let data = pos + 8
            guard data + len + 4 <= bytes.count else { throw DecodeError(description: "truncated chunk \(type)") }
            switch type {
            case "IHDR":
                w = be32(data); h = be32(data + 4)
                guard bytes[data + 8] == 8, bytes[data + 12] == 0 else { throw DecodeError(description: "only 8-bit non-interlaced PNG supported") }
                colourType = Int(bytes[data + 9])
            case "IDAT": idat += bytes[data..<(data + len)]
            default: break
            }
            pos = data + len + 4
            if type == "IEND" { break }
        }
        let channels: Int
        switch colourType {
        case 2: channels = 3
        case 6: channels = 4
        default: throw DecodeError(description: "colour type \(colourType) not supported")
        }
        guard idat.count > 2 else { throw DecodeError(description: "no image data") }
        var inflater = Inflater(Array(idat[2...]))
        let raw = try inflater.inflate()
        let stride = w * channels
        guard raw.count >= h * (stride + 1) else { throw DecodeError(description: "short image data: \(raw.count) bytes for \(w)x\(h)") }
        var out = [UInt8](repeating: 255, count: w * h * 4)
        var prev = [UInt8](repeating: 0, count: stride)
        var cur = [UInt8](repeating: 0, count: stride)
        for y in 0..<h {
            let base = y * (stride + 1)
            let filter = raw[base]
            for i in 0..<stride {
                let x = raw[base + 1 + i]
                let a = i >= channels ? Int(cur[i - channels]) : 0
                let b = Int(prev[i])
                let c = i >= channels ? Int(prev[i - channels]) : 0
                let v: Int
                switch filter {
                case 0: v = 0
                case 1: v = a
                case 2: v = b
                case 3: v = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    v = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw DecodeError(description: "bad filter \(filter)")
                }
                cur[i] = UInt8(truncatingIfNeeded: Int(x) + v)
            }
            for xp in 0..<w {
                for k in 0..<3 { out[(y * w + xp) * 4 + k] = cur[xp * channels + k] }
                out[(y * w + xp) * 4 + 3] = channels == 4 ? cur[xp * channels + 3] : 255
            }
            swap(&prev, &cur)
        }
        width = w; height = h; rgba = out
    }
}

/// RFC 1951 inflate over a byte array.
struct Inflater {
    let input: [UInt8]
    var bytePos = 0, bitBuf = 0, bitCount = 0
    var out: [UInt8] = []

    init(_ input: [UInt8]) { self.input = input }

    mutating func bits(_ n: Int) throws -> Int {
        while bitCount < n {
            guard bytePos < input.count else { throw PNGImage.DecodeError(description: "deflate stream ended early") }
            bitBuf |= Int(input[bytePos]) << bitCount
            bytePos += 1
            bitCount += 8
        }
        let v = bitBuf & ((1 << n) - 1)
        bitBuf >>= n
        bitCount -= n
        return v
    }

    /// A canonical Huffman code: symbols by code length.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []
        init(lengths: [Int]) {
            for l in lengths { counts[l] += 1 }
            counts[0] = 0
            var offs = [Int](repeating: 0, count: 16)
            for i in 1..<16 { offs[i] = offs[i - 1] + counts[i - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (s, l) in lengths.enumerated() where l != 0 { symbols[offs[l]] = s; offs[l] += 1 }
        }
    }

    mutating func decode(_ h: Huffman) throws -> Int {
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try bits(1)
            let count = h.counts[len]
            if code - count < first { return h.symbols[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw PNGImage.DecodeError(description: "bad Huffman code")
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    mutating func inflate() throws -> [UInt8] {
        var last = 0
        repeat {
            last = try bits(1)
            switch try bits(2) {
            case 0:
                bitBuf = 0; bitCount = 0
                guard bytePos + 4 <= input.count else { throw PNGImage.DecodeError(description: "truncated stored block") }
                let len = Int(input[bytePos]) | Int(input[bytePos + 1]) << 8
                bytePos += 4
                guard bytePos + len <= input.count else { throw PNGImage.DecodeError(description: "truncated stored block") }
                out += input[bytePos..<(bytePos + len)]
                bytePos += len
            case 1:
                var l = [Int](repeating: 8, count: 288)
                for i in 144..<256 { l[i] = 9 }
                for i in 256..<280 { l[i] = 7 }
                try codes(Huffman(lengths: l), Huffman(lengths: [Int](repeating: 5, count: 30)))
            case 2:
                let hlit = try bits(5) + 257, hdist = try bits(5) + 1, hclen = try bits(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var cl = [Int](repeating: 0, count: 19)
                for i in 0..<hclen { cl[order[i]] = try bits(3) }
                let clh = Huffman(lengths: cl)
                var lengths: [Int] = []
                while lengths.count < hlit + hdist {
                    let sym = try decode(clh)
                    switch sym {
                    case 0...15: lengths.append(sym)
                    case 16:
                        guard let prev = lengths.last else { throw PNGImage.DecodeError(description: "repeat with no previous length") }
                        lengths += [Int](repeating: prev, count: 3 + (try bits(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
                    default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
                    }
                }
                try codes(Huffman(lengths: Array(lengths[0..<hlit])), Huffman(lengths: Array(lengths[hlit..<(hlit + hdist)])))
            default: throw PNGImage.DecodeError(description: "bad block type")
            }
        } while last == 0
        return out
    }

    mutating func codes(_ lit: Huffman, _ dist: Huffman) throws {
        while true {
            let sym = try decode(lit)
            if sym < 256 { out.append(UInt8(sym)); continue }
            if sym == 256 { return }
            let li = sym - 257
            guard li < 29 else { throw PNGImage.DecodeError(description: "bad length symbol") }
            let len = Self.lengthBase[li] + (try bits(Self.lengthExtra[li]))
            let di = try decode(dist)
            guard di < 30 else { throw PNGImage.DecodeError(description: "bad distance symbol") }
            let d = Self.distBase[di] + (try bits(Self.distExtra[di]))
            guard d <= out.count else { throw PNGImage.DecodeError(description: "distance too far back") }
            let start = out.count - d
            for k in 0..<len { out.append(out[start + k]) }
        }
    }
}
