import PonyJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Scenario {
    /// The largest scenario file accepted, in bytes (1 MiB).
    public static let maxFileSize = JSONReader.maxFileSize
    /// The longest line a scenario file may have, in bytes.
    public static let maxLineLength = JSONReader.maxLineLength

    /// The names of the built-in scenarios, the default first.
    public static var builtinNames: [String] { builtins.map(\.name) }

    /// The built-in scenario called `name`, or `nil`.
    public static func builtin(named name: String) -> Scenario? {
        builtins.first { $0.name == name }
    }

    /// Reads a scenario from the bytes of a scenario file.
    ///
    /// A pure function that never traps, whatever the bytes: it returns a scenario whose every value is in range
    /// and every name known, or throws a ``ScenarioError`` naming `fileName`, the line and column, what was
    /// expected and what was found, with the other independent problems of the file in its
    /// ``ScenarioError/others``. A byte-order mark, CRLF line endings, trailing blank lines, `//` and `#` comments
    /// and trailing commas are accepted.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - fileName: How errors name the file.
    /// - Returns: The scenario.
    public static func parse(_ bytes: [UInt8], fileName: String) throws(ScenarioError) -> Scenario {
        let root: JSONValue
        do {
            root = try JSONReader.read(bytes, fileName: fileName)
        } catch {
            throw ScenarioError(error)
        }
        return try ScenarioDecoder(file: fileName).scenario(root)
    }

    /// Reads a scenario from a scenario file's text; see ``parse(_:fileName:)-([UInt8],_)``.
    public static func parse(_ text: String, fileName: String) throws(ScenarioError) -> Scenario {
        try parse(Array(text.utf8), fileName: fileName)
    }

    /// Reads a scenario file.
    ///
    /// A missing file, a directory, an unreadable or oversized file, and every problem ``parse(_:fileName:)-([UInt8],_)``
    /// finds, are reported as one ``ScenarioError`` before anything runs.
    ///
    /// - Parameter path: The file's path.
    /// - Returns: The scenario.
    public static func load(contentsOf path: String) throws(ScenarioError) -> Scenario {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(
                path, document: "scenario file",
                ifMissing: (expected: "a scenario file or a built-in scenario name", valid: builtinNames))
        } catch {
            throw ScenarioError(error)
        }
        return try parse(bytes, fileName: path)
    }

    /// The prefix that names a built-in scenario when a file of the same name is in the current directory.
    public static let builtinPrefix = "builtin:"

    /// The built-in scenario named `nameOrPath`, or else the scenario in the file at that path.
    ///
    /// A bare name that is both a built-in's and a file's in the current directory is an error rather than one
    /// silently hiding the other: `./leaky` names the file, `builtin:leaky` the built-in.
    ///
    /// ```swift
    /// let scenario = try Scenario.resolve(arguments.scenario ?? "app")
    /// ```
    ///
    /// - Parameter nameOrPath: A built-in name such as `leaky` (or `builtin:leaky`), or a path to a scenario file.
    /// - Returns: The scenario.
    public static func resolve(_ nameOrPath: String) throws(ScenarioError) -> Scenario {
        if nameOrPath.hasPrefix(builtinPrefix) {
            let name = String(nameOrPath.dropFirst(builtinPrefix.count))
            guard let builtin = builtin(named: name) else {
                throw ScenarioError(
                    file: nameOrPath, problem: "unknown built-in scenario", expected: "a built-in scenario name",
                    found: "\"\(name)\"", valid: builtinNames)
            }
            return builtin
        }
        if let builtin = builtin(named: nameOrPath) {
            guard access(nameOrPath, F_OK) != 0 else {
                throw ScenarioError(
                    file: nameOrPath, problem: "ambiguous scenario name",
                    expected: "./\(nameOrPath) for the file here or \(builtinPrefix)\(nameOrPath) for the built-in",
                    found: "both a built-in scenario and a file called \"\(nameOrPath)\"")
            }
            return builtin
        }
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.contains(".")
        if !looksLikePath, access(nameOrPath, F_OK) != 0 {
            throw ScenarioError(
                file: nameOrPath, problem: "unknown scenario",
                expected: "a built-in scenario name or the path of a scenario file", found: "\"\(nameOrPath)\"",
                valid: builtinNames)
        }
        return try load(contentsOf: nameOrPath)
    }
}
