import Foundation
import PonyExpressWire
import PonyTestSupport
import Testing

/// A SARIF 2.1.0 reader from PyPI (`sarif-pydantic`), run through python3, when it is installed.
enum SARIFReader {
    /// Whether `python3 -c "import sarif_pydantic"` works.
    static let isAvailable: Bool = {
        guard let result = try? ChildProcess.run(["/usr/bin/env", "python3", "-c", "import sarif_pydantic"]) else {
            return false
        }
        return result.status == 0
    }()

    /// Reads a SARIF file with `sarif_pydantic.load` and prints, per result, `ruleId uri startLine level`.
    static func read(_ path: String) throws -> ChildProcess.Result {
        let script = """
            import sys
            from sarif_pydantic import load
            log = load(sys.argv[1])
            assert log.version == "2.1.0", log.version
            run = log.runs[0]
            rules = [rule.id for rule in run.tool.driver.rules]
            print("rules", ",".join(rules))
            for result in run.results:
                assert rules[result.rule_index] == result.rule_id
                location = result.locations[0].physical_location
                print(result.rule_id, location.artifact_location.uri, location.artifact_location.uri_base_id,
                      location.region.start_line, result.level.value if hasattr(result.level, "value") else result.level)
            """
        return try ChildProcess.run(["/usr/bin/env", "python3", "-c", script, path])
    }
}

/// The command line of a run's report: SARIF that a reader accepts and that points into the repository, and a run
/// cut short by a signal that still prints its report.
@Suite(
    "ponytop reports of a run", .blocksItsThread, .serialized,
    .enabled(if: PonyTopBinary.exists, "ponytop was not built"))
struct RunReportCommandTests {
    /// The repository: three folders above this file.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test(
        "--report sarif: a SARIF 2.1.0 reader reads it; each leak is located at its registration's file and line",
        .enabled(
            if: SARIFReader.isAvailable,
            "skipped: python3 with sarif-pydantic is missing (pip install sarif-pydantic==0.6.2)"))
    func sarif() throws {
        let result = try ChildProcess.run(
            [
                PonyTopBinary.path, "--report", "sarif", "--scenario", "leaky", "--fail-on", "leak",
                "--source-root", Self.repositoryRoot,
            ], timeout: 60)
        #expect(result.status == 1, "\(result.error)")
        let file = ChildProcess.temporaryFile("sarif")
        defer { unlink(file) }
        try result.output.write(toFile: file, atomically: true, encoding: .utf8)
        let read = try SARIFReader.read(file)
        #expect(read.status == 0, "\(read.error)")
        let lines = read.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("rules oversubscribed,duplicateRegistration,outlivedScope,growingRegistrations")
                == true)
        let leaks = lines.filter { $0.hasPrefix("growingRegistrations ") }
        #expect(leaks.count == 2, "\(read.output)")
        for leak in leaks {
            let fields = leak.split(separator: " ").map(String.init)
            #expect(fields.count == 5, "\(leak)")
            guard fields.count == 5 else { continue }
            #expect(fields[1].hasPrefix("Sources/PonyScenarios/"), "relative to the repository: \(leak)")
            #expect(fields[2] == "%SRCROOT%")
            #expect(fields[4] == "error")
            let source = try String(contentsOfFile: Self.repositoryRoot + "/" + fields[1], encoding: .utf8)
            let line = source.split(separator: "\n", omittingEmptySubsequences: false)[(Int(fields[3]) ?? 1) - 1]
            #expect(line.contains("register"), "the line that registered the leaking recipient: \(line)")
        }
    }

    @Test("--source-root that is not a directory: one line, exit 2")
    func badSourceRoot() throws {
        let result = try ChildProcess.run(
            [PonyTopBinary.path, "--report", "sarif", "--duration", "0.5", "--source-root", "/nonexistent/dir"])
        #expect(result.status != 0)
        #expect(
            result.error.split(separator: "\n").first?.contains("--source-root: '/nonexistent/dir' is not a directory")
                == true, "\(result.error)")
    }

    /// Starts `ponytop` with `arguments`, lets it run `seconds` (the part of the run the report covers), sends
    /// `signal`, and returns its status and output.
    private func interrupted(
        _ arguments: [String], after seconds: Double, signal: Int32
    ) throws -> (status: Int32, output: String, error: String) {
        let output = ChildProcess.temporaryFile("out")
        let error = ChildProcess.temporaryFile("err")
        defer {
            unlink(output)
            unlink(error)
        }
        let pid = try ChildProcess.spawn([PonyTopBinary.path] + arguments, stdout: output, stderr: error)
        let start = Date()
        // The run's length before the signal: a deadline, not a wait for a result.
        _ = waitUntil(timeout: seconds + 1) { Date().timeIntervalSince(start) >= seconds }
        kill(pid, signal)
        let status = ChildProcess.wait(for: pid, timeout: 30)
        return (
            status: status, output: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: error, encoding: .utf8)) ?? ""
        )
    }

    @Test("SIGTERM during --report prints the report so far, marked partial, and exits 143")
    func sigterm() throws {
        let result = try interrupted(
            ["--report", "json", "--scenario", "app", "--duration", "60"], after: 1.5, signal: SIGTERM)
        #expect(result.status == 143, "\(result.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["partial"] as? Bool == true)
        #expect(json["interrupted_by"] as? String == "SIGTERM")
        #expect((json["duration_seconds"] as? Double ?? 60) < 30)
        #expect(result.error.contains("SIGTERM cut the run short; the report is partial"))
    }

    @Test("SIGINT after a leak showed: the partial report fails --fail-on leak with status 1")
    func sigintFailsOn() throws {
        let result = try interrupted(
            ["--report", "text", "--scenario", "leaky", "--duration", "60", "--fail-on", "leak"], after: 7,
            signal: SIGINT)
        #expect(result.status == 1, "\(result.error)")
        #expect(result.output.hasPrefix("PARTIAL REPORT: the run was cut short by SIGINT"))
        #expect(result.error.contains("ponytop: --fail-on leak: leak growingRegistrations"))
    }

    @Test(
        "--refresh sets how often a headless run takes a snapshot: --record writes one per refresh, and one at the end",
        arguments: [(0.1, 8...40), (5, 1...2)])
    func headlessRefresh(refresh: Double, frames: ClosedRange<Int>) throws {
        let file = ChildProcess.temporaryFile("ponyrec")
        defer { unlink(file) }
        let result = try ChildProcess.run(
            [
                PonyTopBinary.path, "--report", "json", "--scenario", "app", "--duration", "1.5", "--refresh",
                "\(refresh)", "--record", file,
            ], timeout: 60)
        #expect(result.status == 0, "\(result.error)")
        // Every 0.5 s whatever --refresh says would be 3 frames (2 refreshes and the final snapshot).
        let recorded = try Recording(path: file).frameCount
        #expect(frames.contains(recorded), "--refresh \(refresh) for 1.5 s recorded \(recorded) snapshots")
    }
}
