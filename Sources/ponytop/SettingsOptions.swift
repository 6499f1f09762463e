import ArgumentParser
import Glibc
import PonyTopUI

/// The options that choose ponytop's look and settings: `--theme`, `--config` and `--write-config`.
///
/// Precedence: an option on the command line, then the config file, then the defaults.
struct SettingsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The colours: " + Theme.all.map { "\($0.name) \($0.summary)" }.joined(separator: "; ") + ".",
            valueName: "name"),
        transform: { name in
            guard let theme = Theme.named(name) else {
                throw ValidationError("expected one of " + Theme.all.map(\.name).joined(separator: ", "))
            }
            return theme.name
        })
    var theme: String?

    @Option(
        help: ArgumentHelp(
            "The config file (default: $XDG_CONFIG_HOME/ponytop/config.json, else ~/.config/ponytop/config.json).",
            valueName: "path"))
    var config: String?

    @Flag(help: "Write a config file with every default and a comment on each line, then exit.")
    var writeConfig = false

    /// The config file's path: `--config`, else the default location.
    var path: String? {
        config ?? PonyTopConfig.defaultPath(environment: Self.environment)
    }

    /// The settings: the config file (missing at the default location means the defaults), then the options.
    ///
    /// - Parameters:
    ///   - refresh: `--refresh`, if given.
    ///   - fallingBackToDefaults: Whether a bad file is said once on stderr and the defaults used instead, for
    ///     commands that only list (`--list`, `--list-scenarios`, `--list-rules`).
    /// - Returns: The settings; otherwise a bad file ends ponytop with one line per problem.
    func load(refresh: Double?, fallingBackToDefaults: Bool = false) -> PonyTopConfig {
        var settings = PonyTopConfig()
        if let path {
            do {
                settings = try PonyTopConfig.load(contentsOf: path, missingIsDefault: config == nil)
            } catch  where fallingBackToDefaults {
                let problems = error.lines
                FileHandleOutput.standardError(
                    "ponytop: config: \(problems.first ?? "unreadable")"
                        + (problems.count > 1 ? " (and \(problems.count - 1) more)" : "") + "; using the defaults\n")
            } catch {
                PonyTop.fail(error.lines.map { "config: " + $0 })
            }
        }
        if let theme, let chosen = Theme.named(theme) { settings.theme = chosen }
        if let refresh { settings.refresh = refresh }
        return settings
    }

    /// Writes the default config file, creating its directory; refuses to replace a file.
    func writeDefaults() {
        guard let path else {
            PonyTop.fail("--write-config: neither XDG_CONFIG_HOME nor HOME is set; expected --config PATH")
        }
        guard access(path, F_OK) != 0 else {
            PonyTop.fail(
                "--write-config: \(path) exists; expected a path with no file (delete it, or give --config PATH)")
        }
        var directory = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/").dropLast() {
            directory += "/" + component
            if access(directory, F_OK) != 0, mkdir(directory, 0o755) != 0 {
                PonyTop.fail("--write-config: cannot create \(directory): \(String(cString: strerror(errno)))")
            }
        }
        guard let file = fopen(path, "wx") else {
            PonyTop.fail("--write-config: cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let text = PonyTopConfig.defaultFileText
        let written = fwrite(text, 1, text.utf8.count, file)
        guard fclose(file) == 0, written == text.utf8.count else {
            PonyTop.fail("--write-config: cannot write \(path): \(String(cString: strerror(errno)))")
        }
        PonyTop.write("wrote \(path)\n")
    }

    private static var environment: [String: String] {
        var result: [String: String] = [:]
        for name in ["XDG_CONFIG_HOME", "HOME"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
