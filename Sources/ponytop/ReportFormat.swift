import ArgumentParser

/// The formats of `--report`: text for people, JSON for scripts, SARIF 2.1.0 for code scanning.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif
}
