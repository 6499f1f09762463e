import ArgumentParser
import PonyTopReport

/// The formats of `--report`: text for people, JSON for scripts, SARIF 2.1.0 for code scanning, and the screen
/// ponytop would draw at the run's end, as plain text (for a bug report or a CI log).
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, screen
}

extension Report.Source {
    /// What a report says it watched: the source's origin, in the report's schema.
    init(_ origin: SourceOrigin) {
        let kind: Kind =
            switch origin.kind {
            case .scenario: .scenario
            case .attached: .attached
            case .replay: .replay
            }
        self.init(kind: kind, name: origin.name, pid: origin.pid)
    }
}
