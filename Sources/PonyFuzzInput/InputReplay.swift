#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a fuzz target does when it is built without libFuzzer (a plain `swift build`): replays input files through
/// the target's check, so that a crash the fuzzer found can be reproduced in a debug build
/// (`swift run PonyScenarioFuzz crash-<hash>`).
package enum InputReplay {
    /// Replays each file through `check` and prints what it said; exits 2 on no files or an unreadable one.
    ///
    /// - Parameters:
    ///   - paths: The input files.
    ///   - tool: The target's name, for messages.
    ///   - checks: What the check exercises, for the usage line ("the scenario parser's checks").
    ///   - check: The fuzz target's check of one input, returning what became of it.
    package static func run(
        _ paths: some Collection<String>, tool: String, checks: String, _ check: ([UInt8]) -> String
    ) {
        guard !paths.isEmpty else {
            printError("usage: \(tool) FILE...  (replays inputs through \(checks))")
            exit(2)
        }
        for path in paths {
            guard let bytes = read(path) else {
                printError("\(tool): cannot read '\(path)'; expected a readable file")
                exit(2)
            }
            print("\(path): \(check(bytes))")
        }
    }

    /// Writes one line to standard error.
    package static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// The whole file, or `nil` when it cannot be read.
    package static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes.append(contentsOf: buffer[0..<count])
            if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
