import ArgumentParser

/// The formats of `--report`: text for people, JSON for scripts, SARIF 2.1.0 for code scanning, and the screen
/// ponytop would draw at the run's end, as plain text (for a bug report or a CI log).
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, screen
}
