import PonyScenarios

/// What the scenario parser promises for any bytes at all, checked on one input: it returns a scenario or throws
/// a ``ScenarioError`` whose message, and each of whose problem lines, is a single line naming the file. Anything else traps, which is what the
/// fuzzer reports as a crash.
enum ScenarioParserProbe {
    /// The file name handed to the parser, which every error must name.
    static let fileName = "fuzz.json"

    /// Parses `bytes` and traps when the parser breaks its promise.
    ///
    /// - Parameter bytes: A candidate scenario file.
    /// - Returns: The error's message, or `nil` when the bytes are a valid scenario.
    @discardableResult
    static func check(_ bytes: [UInt8]) -> String? {
        do {
            let scenario = try Scenario.parse(bytes, fileName: fileName)
            precondition(!scenario.phases.isEmpty, "a parsed scenario has no phases")
            return nil
        } catch {
            let message = error.description
            for line in [message] + error.lines {
                precondition(!line.contains("\n") && !line.contains("\r"), "a multi-line error: \(line)")
                precondition(line.hasPrefix(fileName), "an error that does not name the file: \(line)")
            }
            precondition(error.others.count < 20, "more problems kept than the limit: \(error.others.count)")
            return message
        }
    }
}

/// libFuzzer's entry point: called once per generated input.
///
/// - Parameters:
///   - data: The input's bytes; may be `nil` when `size` is 0.
///   - size: How many bytes.
/// - Returns: 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenarioParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    ScenarioParserProbe.check(bytes)
    return 0
}
