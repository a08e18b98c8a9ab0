import Foundation

/// Debian's Chromium run headless, for the tests that look at the HTML reports in a real browser.
/// `scripts/install-deps.sh --browser` installs it; tests using it are skipped when it is absent.
public enum HeadlessChromium {
    /// `$CHROMIUM`, else Debian's Chromium (or a Chrome); nil when none is installed.
    public static let path: String? = {
        if let env = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: env) { return env }
        return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Why browser tests are skipped.
    public static let missingReason = "chromium not installed (scripts/install-deps.sh --browser); the CI script installs it"

    /// Runs Chromium headless with `arguments` (killed after 90 s, so a hung browser fails the
    /// test instead of hanging it); returns its stdout.
    public static func run(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path!)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-dev-shm-usage"] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        watchdog.cancel()
        return String(decoding: data, as: UTF8.self)
    }

    /// The DOM of `page` after load (`--dump-dom`).
    public static func dom(of page: URL) throws -> String { try run(["--dump-dom", page.absoluteString]) }

    /// A screenshot of `page` at `width` × `height` pixels, decoded.
    public static func screenshot(of page: URL, width: Int, height: Int, to png: URL) throws -> PNGImage {
        _ = try run(["--screenshot=\(png.path)", "--window-size=\(width),\(height)", page.absoluteString])
        return try PNGImage([UInt8](Data(contentsOf: png)))
    }
}

/// One start tag of a serialised DOM: its name and attributes, for reading SVG geometry back.
public struct DOMElement: Sendable {
    /// Tag name (`circle`).
    public var tag: String
    /// Attributes by name (entities `&amp;`, `&lt;`, `&gt;`, `&quot;` decoded).
    public var attributes: [String: String]

    /// `attributes[name]` as a number, nil when absent or not a number.
    public func number(_ name: String) -> Double? { attributes[name].flatMap(Double.init) }
    /// Whether the `class` attribute lists `name`.
    public func hasClass(_ name: String) -> Bool { (attributes["class"] ?? "").split(separator: " ").contains { $0 == name } }

    /// Every start tag in `html` (in document order).
    public static func all(in html: String) -> [DOMElement] {
        var out: [DOMElement] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let first = rest.first, first.isLetter, let close = rest.firstIndex(of: ">") else { continue }
            let inside = rest[..<close]
            rest = rest[rest.index(after: close)...]
            let tag = String(inside.prefix { !$0.isWhitespace && $0 != "/" })
            var attributes: [String: String] = [:]
            var s = inside.dropFirst(tag.count)
            while let eq = s.firstIndex(of: "=") {
                let name = s[..<eq].trimmingCharacters(in: .whitespaces)
                let afterEq = s[s.index(after: eq)...]
                guard afterEq.first == "\"", let end = afterEq.dropFirst().firstIndex(of: "\"") else { break }
                let value = afterEq[afterEq.index(after: afterEq.startIndex)..<end]
                attributes[String(name.split(separator: " ").last ?? "")] = String(value)
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
                s = afterEq[afterEq.index(after: end)...]
            }
            out.append(DOMElement(tag: tag, attributes: attributes))
        }
        return out
    }
}
