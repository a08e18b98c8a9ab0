import Foundation
import Testing
import MotionTestSupport

/// Whether `python3` with the `jsonschema` package is here (scripts/validate-json.py exits 77 without it).
private let jsonschemaPresent: Bool = {
    guard let r = try? TestProcess.run(["/bin/sh", "-c", "python3 -c 'import jsonschema, referencing'"]) else { return false }
    return r.status == 0
}()

/// The fleet commands' JSON outputs against their schemas (docs/schemas/), from real runs through
/// a real Mosquitto: `bench fleet --json` with a few boards, and the NDJSON lines of a board
/// (`replay --publish --ndjson`, the objects `capture --ndjson` prints). Skipped without
/// mosquitto or python3's jsonschema (scripts/install-deps.sh).
@Suite(.serialized, .enabled(if: MosquittoBroker.available && MotionBatchProcess.executable != nil && jsonschemaPresent,
                             "needs mosquitto (scripts/install-deps.sh), the built motionbatch and python3's jsonschema"))
struct FleetJSONSchemaTests {

    /// The exit status of scripts/validate-json.py on `text` against docs/schemas/`schema`.schema.json.
    static func validate(_ schema: String, _ text: String) throws -> TestProcess.Result {
        let path = try TestPaths.scratchFile(text, name: "\(schema).json")
        return try TestProcess.run(["/usr/bin/env", "python3", TestPaths.packageRoot.appendingPathComponent("scripts/validate-json.py").path, schema, path])
    }

    @Test(.timeLimit(.minutes(2)))
    func benchFleetAndABoardsNDJSONValidate() throws {
        let broker = try MosquittoBroker(authenticated: false)
        let dir = try TestPaths.makeScratchDirectory(prefix: "fleet-json")
        let bench = try MotionBatchProcess(["bench", "fleet", broker.url(nil), "--boards", "2", "--seconds", "2", "--drain", "10",
                                            "--dir", dir.path, "--outbox-dir", dir.appendingPathComponent("outboxes").path, "--json"],
                                           in: dir, name: "bench")
        #expect(bench.wait(seconds: 60) == 0, "\(bench.stderr)")
        #expect(bench.stdout.hasPrefix("{\n  \"schema\": 1,"), "\(bench.stdout.prefix(80))")
        let b = try Self.validate("bench-fleet", bench.stdout)
        #expect(b.status == 0, "\(b.err)")

        let walk = TestPaths.packageRoot.appendingPathComponent("Recordings/hapt-user01-walking.csv").path
        let board = try MotionBatchProcess(["replay", walk, "--publish", broker.url(nil), "--board-id", "b1", "--ndjson", "--outbox", "b1.outbox"],
                                           in: dir, name: "b1")
        #expect(board.wait(seconds: 60) == 0, "\(board.stderr)")
        let lines = board.stdout.split(separator: "\n")
        #expect(lines.count > 10 && lines.allSatisfy { $0.hasPrefix("{\"schema\":1,\"type\":") }, "\(board.stdout.prefix(200))")
        #expect(lines.last?.hasPrefix("{\"schema\":1,\"type\":\"summary\"") == true)
        let n = try Self.validate("capture-ndjson", board.stdout)
        #expect(n.status == 0, "\(n.err)")
    }
}
