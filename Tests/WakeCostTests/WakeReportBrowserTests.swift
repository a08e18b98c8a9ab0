import Foundation
import Testing
import MotionTestSupport
import MotionCore
@testable import WakeCost

/// Debian's Chromium, or `$CHROMIUM`; nil when not installed.
let chromiumPath: String? = {
    if let env = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: env) { return env }
    return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// Runs chromium headless with `arguments` (killed after 90 s); returns stdout.
func runChromium(_ arguments: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: chromiumPath!)
    p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-dev-shm-usage"] + arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try p.run()
    // A hung browser must fail the test, not hang it.
    let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    watchdog.cancel()
    return String(decoding: data, as: UTF8.self)
}

// The HTML report rendered by a real headless browser: the DOM after load holds both SVG charts
// with a line per rate, and the screenshot's pixels show the line colours and the shaded
// overflow region (not a blank page). Skipped when Chromium is absent (CI installs it).
@Suite(.enabled(if: chromiumPath != nil, "chromium not installed (apt-get install chromium); the CI script installs it"), .serialized)
struct WakeReportBrowserTests {
    @Test func chartIsDrawnInHeadlessChromium() throws {
        let dir = try TestPaths.makeScratchDirectory(prefix: "wakecost-browser")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html")
        try Data(sampleReport().html(title: "MotionBatch wake-up cost: rpi-4b").utf8).write(to: page)

        let dom = try runChromium(["--dump-dom", page.absoluteString])
        #expect(dom.contains("<svg id=\"battery\"") && dom.contains("<svg id=\"wakeups\""))
        #expect(dom.components(separatedBy: "<polyline").count - 1 == 8)

        let png = dir.appendingPathComponent("shot.png")
        _ = try runChromium(["--screenshot=\(png.path)", "--window-size=1000,1000", page.absoluteString])
        let bytes = try [UInt8](Data(contentsOf: png))
        // Keep a copy for people to look at.
        try? Data(bytes).write(to: TestPaths.packageRoot.appendingPathComponent(".build/wakes-report-screenshot.png"))
        let image = try PNGImage(bytes)
        #expect(image.width == 1000 && image.height == 1000)

        func count(near colour: (Int, Int, Int), tolerance: Int = 40) -> Int {
            var n = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let (r, g, b) = image.pixel(x, y)
                    if abs(Int(r) - colour.0) + abs(Int(g) - colour.1) + abs(Int(b) - colour.2) <= tolerance { n += 1 }
                }
            }
            return n
        }
        let white = count(near: (255, 255, 255), tolerance: 0)
        #expect(white < image.width * image.height * 97 / 100, "the page is (almost) blank")
        // Each rate's line colour is drawn (25 Hz blue #1f77b4, 50 Hz red #d62728, 100 Hz green #2ca02c, 200 Hz purple #9467bd).
        for c in [(0x1f, 0x77, 0xb4), (0xd6, 0x27, 0x28), (0x2c, 0xa0, 0x2c), (0x94, 0x67, 0xbd)] {
            #expect(count(near: c) > 150, "too few pixels of line colour \(c)")
        }
        // The overflow region: #f4b6b6 at 45 % over white ≈ (250, 226, 226).
        #expect(count(near: (250, 226, 226), tolerance: 12) > 5000, "overflow region not shaded")
    }
}
