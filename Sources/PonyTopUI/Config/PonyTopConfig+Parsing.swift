import PonyExpressMonitor
import PonyJSON

/// Why a config file could not be used: one line per problem, each naming the file and, where there is one, the
/// line and column.
package struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// One line per problem.
    package let lines: [String]

    /// The problems, one per line.
    package var description: String { lines.joined(separator: "\n") }

    init(_ problem: DocumentProblem) {
        lines = [problem.description]
    }

    init(_ problems: [DocumentProblem]) {
        lines = problems.map(\.description)
    }
}

extension PonyTopConfig {
    /// The fields of the file.
    static let fields = ["theme", "refresh", "thresholds", "rules"]

    /// Reads a config file's bytes.
    ///
    /// A pure function that never traps: every independent problem (an unknown field, theme, threshold or rule, a
    /// value of the wrong type or out of range) is reported together.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - fileName: How errors name the file.
    /// - Returns: The settings, starting from the defaults.
    package static func parse(_ bytes: [UInt8], fileName: String) throws(ConfigError) -> PonyTopConfig {
        let root: JSONValue
        do {
            root = try JSONReader.read(bytes, fileName: fileName, document: "config")
        } catch {
            throw ConfigError(error)
        }
        var reader = ConfigReader(file: fileName)
        let config = reader.config(root)
        guard reader.problems.isEmpty else {
            throw ConfigError(
                reader.problems.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) })
        }
        return config
    }

    /// Reads the config file at `path`.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - missingIsDefault: Whether a missing file means the defaults (the default location) rather than an error
    ///     (a path given with `--config`).
    package static func load(contentsOf path: String, missingIsDefault: Bool) throws(ConfigError) -> PonyTopConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(
                path, document: "config file",
                ifMissing: (expected: "a config file (ponytop --write-config writes one)", valid: []))
        } catch {
            if missingIsDefault, error.problem == "no such file" { return PonyTopConfig() }
            throw ConfigError(error)
        }
        return try parse(bytes, fileName: path)
    }
}

/// Checks a config file's JSON field by field, noting every problem.
private struct ConfigReader {
    let file: String
    var problems: [DocumentProblem] = []

    mutating func config(_ root: JSONValue) -> PonyTopConfig {
        var config = PonyTopConfig()
        guard let members = object(root, "the config file", valid: PonyTopConfig.fields) else { return config }
        for member in members {
            let value = member.value
            switch member.key {
            case "theme":
                guard case .string(let name) = value.kind, let theme = Theme.named(name) else {
                    fail(value, "unknown theme", expected: "a theme name", valid: Theme.all.map(\.name))
                    continue
                }
                config.theme = theme
            case "refresh":
                guard case .number(let seconds) = value.kind, PonyTopConfig.refreshRange.contains(seconds) else {
                    fail(value, "bad \"refresh\"", expected: "seconds from 0.05 to 60")
                    continue
                }
                config.refresh = seconds
            case "thresholds":
                guard let thresholds = object(value, "thresholds", valid: ConfigThreshold.all.map(\.name)) else {
                    continue
                }
                for threshold in thresholds {
                    read(threshold, into: &config.monitor)
                }
            case "rules":
                guard let rules = object(value, "rules", valid: Finding.Kind.allCases.map(\.rawValue)) else {
                    continue
                }
                for rule in rules {
                    guard case .bool(let on) = rule.value.kind else {
                        fail(rule.value, "wrong type for rule \"\(rule.key)\"", expected: "true or false")
                        continue
                    }
                    // `object` let only the kinds' names through.
                    let kind = Finding.Kind(rawValue: rule.key)
                    if on { config.disabledFindings.remove(kind) } else { config.disabledFindings.insert(kind) }
                }
            default:
                // `object` let only the valid fields through.
                continue
            }
        }
        return config
    }

    /// Sets one threshold, checked by the monitor's own validation.
    private mutating func read(_ member: JSONValue.Member, into settings: inout MonitorSettings) {
        guard let threshold = ConfigThreshold.named(member.key) else { return }
        guard case .number(let number) = member.value.kind, !threshold.isWhole || number == number.rounded() else {
            fail(
                member.value, "wrong type for \"\(member.key)\"",
                expected: threshold.isWhole ? "a whole number" : "a number")
            return
        }
        var trial = MonitorSettings()
        threshold.set(number, in: &trial)
        do {
            try trial.validate()
            threshold.set(number, in: &settings)
        } catch {
            fail(member.value, "\"\(member.key)\" out of range", expected: error.expected)
        }
    }

    /// The members of an object whose keys are valid; the others are noted as problems.
    private mutating func object(_ value: JSONValue, _ what: String, valid: [String]) -> [JSONValue.Member]? {
        guard case .object(let members) = value.kind else {
            fail(value, "wrong type for \(what)", expected: "an object {...}")
            return nil
        }
        return members.filter { member in
            guard valid.contains(member.key) else {
                problems.append(
                    DocumentProblem(
                        file: file, line: member.keyPosition.line, column: member.keyPosition.column,
                        problem: "unknown field in \(what)", expected: "a field of \(what)",
                        found: "\"\(JSONValue.shorten(member.key))\"", valid: valid))
                return false
            }
            return true
        }
    }

    private mutating func fail(_ value: JSONValue, _ problem: String, expected: String, valid: [String] = []) {
        problems.append(
            DocumentProblem(
                file: file, line: value.position.line, column: value.position.column, problem: problem,
                expected: expected, found: value.found, valid: valid))
    }
}
