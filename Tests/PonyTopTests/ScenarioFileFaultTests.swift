import Foundation
import PonyTestSupport
import Testing

/// `ponytop --scenario FILE` with files no parser should choke on: one line naming the file (and the line where
/// there is one), exit status 2, no crash and no stack trace.
@Suite("ponytop with hostile scenario files", .blocksItsThread)
struct ScenarioFileFaultTests {
    /// Writes `bytes` to a fresh file and runs headless ponytop on it.
    func run(_ bytes: [UInt8]) throws -> (path: String, result: ChildProcess.Result) {
        let path = ChildProcess.temporaryFile("json")
        defer { unlink(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try ChildProcess.run(
            [PonyTopBinary.path, "--scenario", path, "--report", "json", "--duration", "0.2"], timeout: 30)
        return (path, result)
    }

    /// The hostile files, built when a test case runs (not as arguments, which Swift Testing would encode).
    enum HostileFile: String, CaseIterable, Sendable {
        case invalidUTF8 = "invalid UTF-8"
        case nulByte = "a NUL byte"
        case tenMebibytes = "a 10 MiB file"
        case longLine = "a 64 KiB line"

        static let valid = Array(
            #"{ "name": "x", "summary": "y", "phases": [ { "name": "p", "duration": 1, "rate": 10, "mail": "AppEvent" } ] }"#
                .utf8)

        var bytes: [UInt8] {
            switch self {
            case .invalidUTF8: Array("{ \"name\": \"".utf8) + [0xC3, 0x28] + Array("\" }\n".utf8)
            case .nulByte: Array("{\n  \"name\": \"a".utf8) + [0] + Array("b\"\n}\n".utf8)
            case .tenMebibytes: Self.valid + [UInt8](repeating: 0x20, count: 10 << 20)
            case .longLine:
                Array("{ \"name\": \"".utf8) + [UInt8](repeating: 0x61, count: 64 << 10) + Array("\" }".utf8)
            }
        }

        /// Whether the problem is at one place, so that the error names its line.
        var hasLine: Bool { self == .invalidUTF8 || self == .nulByte }
    }

    @Test(
        "invalid UTF-8, a NUL byte, a 10 MiB file, a 64 KiB line: one clear line, exit 2",
        arguments: HostileFile.allCases)
    func hostileFile(_ file: HostileFile) throws {
        let name = file.rawValue
        let (path, result) = try run(file.bytes)
        #expect(result.status == 2, "\(name): status \(result.status)")
        #expect(result.output.isEmpty, "\(name): nothing on stdout")
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(name): \(result.error)")
        #expect(result.error.hasPrefix("ponytop: --scenario: \(path)"), "\(name): \(result.error)")
        if file.hasLine {
            // `file:line:column: problem`: the position follows the file name.
            let position = result.error.dropFirst("ponytop: --scenario: \(path):".count)
            #expect(position.first?.isNumber == true, "\(name): no line in \(result.error)")
        }
        #expect(!result.error.contains("Fatal error") && !result.error.contains("Backtrace"))
    }

    @Test("a file with several problems: one line per problem, each naming the file and line, exit 2")
    func severalProblems() throws {
        let text =
            #"{ "name": "x", "phases": [ { "duration": -1, "rate": 10, "mail": "AppEvent" },"#
            + "\n"
            + #"  { "duration": 1, "rate": "fast", "mail": "Nothing" } ] }"#
        let (path, result) = try run(Array(text.utf8))
        #expect(result.status == 2)
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.error)")
        for (line, number) in zip(lines, [1, 2, 2]) {
            #expect(line.hasPrefix("ponytop: --scenario: \(path):\(number):"), "\(line)")
        }
    }

    @Test("a file called like a built-in in the current directory is not silently shadowed")
    func fileNamedLikeABuiltIn() throws {
        let directory = ChildProcess.temporaryFile("dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(HostileFile.valid).write(to: URL(fileURLWithPath: directory + "/leaky"))
        func run(_ scenario: String) throws -> ChildProcess.Result {
            try ChildProcess.run(
                [
                    "/bin/sh", "-c",
                    "cd \"$0\" && exec \"$1\" --scenario \"$2\" --report json --duration 0.2", directory,
                    PonyTopBinary.path, scenario,
                ], timeout: 30)
        }
        let ambiguous = try run("leaky")
        #expect(ambiguous.status == 2)
        #expect(
            ambiguous.error
                == "ponytop: --scenario: leaky: ambiguous scenario name; expected ./leaky for the file here or "
                + "builtin:leaky for the built-in, found both a built-in scenario and a file called \"leaky\"\n",
            "\(ambiguous.error)")
        let file = try run("./leaky")
        #expect(file.status == 0, "\(file.error)")
        #expect(file.output.contains("\"scenario\" : \"x\""), "\(file.output.prefix(200))")
        let builtin = try run("builtin:leaky")
        #expect(builtin.status == 0, "\(builtin.error)")
        #expect(builtin.output.contains("\"scenario\" : \"leaky\""), "\(builtin.output.prefix(200))")
    }
}
