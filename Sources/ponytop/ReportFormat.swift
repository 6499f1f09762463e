import ArgumentParser

/// The formats of `--report`.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
