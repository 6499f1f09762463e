import Foundation
import PonyScenarios
import Testing

/// Reading scenario files and resolving `--scenario` arguments.
@Suite struct ScenarioLoadingTests {
    /// A fresh directory for one test's files.
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "pony-scenarios-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func failure(loading path: String) -> ScenarioError? {
        do {
            _ = try Scenario.load(contentsOf: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func loadsAFile() throws {
        let path = try write(Array(ScenarioParsingTests.valid.utf8), to: "ok.json")
        #expect(try Scenario.load(contentsOf: path).name == "test")
        #expect(try Scenario.resolve(path).name == "test")
    }

    @Test func missingFileNamesItAndListsTheBuiltIns() {
        let path = directory + "/missing.json"
        let error = failure(loading: path)
        let text = error?.description ?? ""
        #expect(text.hasPrefix(path + ": no such file"), "\(text)")
        #expect(text.contains("valid: app, leaky, oversubscribed, burst, churn, hierarchy"), "\(text)")
        #expect(!text.contains("\n"))
    }

    @Test func directoryIsRefused() {
        let text = failure(loading: directory)?.description ?? ""
        #expect(text == "\(directory): is a directory; expected a scenario file, found a directory", "\(text)")
    }

    @Test func emptyFileIsRefused() throws {
        let path = try write([], to: "empty.json")
        let text = failure(loading: path)?.description ?? ""
        #expect(text.hasPrefix("\(path):1:1: file is empty"), "\(text)")
    }

    @Test func tenMebibyteFileIsRefusedBeforeReading() throws {
        let path = try write([UInt8](repeating: UInt8(ascii: " "), count: 10 << 20), to: "huge.json")
        let text = failure(loading: path)?.description ?? ""
        #expect(text == "\(path): file too large; expected at most 1048576 bytes, found 10485760 bytes", "\(text)")
    }

    @Test func notUTF8IsRefused() throws {
        let path = try write(Array("{\"name\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8), to: "latin.json")
        let text = failure(loading: path)?.description ?? ""
        #expect(text.hasPrefix("\(path):1:11: not valid UTF-8; expected UTF-8 text, found byte 0xC0"), "\(text)")
    }

    @Test func resolvePrefersBuiltInsThenFiles() throws {
        #expect(try Scenario.resolve("churn") == Scenario.builtin(named: "churn"))
        let path = try write(Array(ScenarioParsingTests.valid.utf8), to: "churn")
        #expect(try Scenario.resolve(path).name == "test")
    }

    @Test func builtinPrefixNamesABuiltIn() throws {
        #expect(try Scenario.resolve("builtin:churn") == Scenario.builtin(named: "churn"))
        do {
            _ = try Scenario.resolve("builtin:nosuch")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("builtin:nosuch: unknown built-in scenario"), "\(error)")
            #expect(error.valid == Scenario.builtinNames)
        }
    }

    @Test func unknownNameListsTheBuiltIns() {
        do {
            _ = try Scenario.resolve("leeky")
            Issue.record("no error")
        } catch {
            #expect(
                error.description
                    == "leeky: unknown scenario; expected a built-in scenario name or the path of a scenario file, "
                    + "found \"leeky\" (valid: app, leaky, oversubscribed, burst, churn, hierarchy, flood, scoped)")
        }
    }
}
