import PonyExpressMonitor

/// ponytop's settings file: the theme, the refresh interval, the monitor's thresholds and which findings it reports.
///
/// It lives at `$XDG_CONFIG_HOME/ponytop/config.json` (else `~/.config/ponytop/config.json`); `ponytop
/// --write-config` writes one with every default and a comment on each line. It is read with the scenario files'
/// reader, so `//` and `#` comments and trailing commas are fine there too, and a bad file is one line per problem
/// naming the file, the line and what is valid:
///
/// ```
/// /home/ada/.config/ponytop/config.json:3:14: unknown theme; expected a theme, found "drak" (valid: dark, light)
/// ```
///
/// Command-line options win over the file, the file over the defaults.
package struct PonyTopConfig: Equatable, Sendable {
    /// The colours.
    package var theme: Theme = .dark
    /// Seconds between screen refreshes.
    package var refresh: Double = 0.5
    /// The monitor's windows, rules and thresholds.
    package var monitor = MonitorSettings()
    /// The findings the monitor must not report: its rules turned off.
    package var disabledFindings: Set<Finding.Kind> {
        get { monitor.disabledRules }
        set { monitor.disabledRules = newValue }
    }

    /// The valid refresh intervals, in seconds.
    package static let refreshRange = 0.05...60.0

    /// The defaults.
    package init() {}

    /// The file's path: `$XDG_CONFIG_HOME/ponytop/config.json`, else `$HOME/.config/ponytop/config.json`; `nil`
    /// when neither variable is set to an absolute path.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/ponytop/config.json" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/ponytop/config.json" }
        return nil
    }

    /// Whether the monitor should report findings of a kind.
    package func reports(_ kind: Finding.Kind) -> Bool {
        !disabledFindings.contains(kind)
    }
}
