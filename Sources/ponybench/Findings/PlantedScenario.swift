import PonyExpressMonitor

/// One entry of `Tests/Scenarios/planted.json`: a scenario, the findings it should produce and how soon.
struct PlantedScenario: Decodable {
    /// What a finding must be to match: a kind, and the mail type and subject where given.
    struct Match: Decodable, CustomStringConvertible {
        let kind: String
        let mailType: String?
        let subject: String?

        func matches(_ finding: Finding) -> Bool {
            finding.kind.rawValue == kind && (mailType.map { $0 == finding.mailType.name } ?? true)
                && (subject.map { $0 == finding.subject } ?? true)
        }

        var description: String {
            [kind, mailType, subject.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// A built-in scenario's name, or a file name in the scenarios folder.
    let scenario: String
    /// How long to run it, in seconds.
    let seconds: Double
    /// The target: every expected finding within this many seconds, if there is one.
    let within: Double?
    /// The findings it should produce; none for a healthy scenario.
    let expect: [Match]
    /// Findings that are right too, though not what the scenario plants (a slow recipient on a stalled queue).
    let alsoCorrect: [Match]?

    var isHealthy: Bool { expect.isEmpty }

    /// Whether `finding` is one the scenario may produce.
    func isCorrect(_ finding: Finding) -> Bool {
        (expect + (alsoCorrect ?? [])).contains { $0.matches(finding) }
    }
}

/// The file of planted scenarios.
struct PlantedScenarios: Decodable {
    let scenarios: [PlantedScenario]
}
