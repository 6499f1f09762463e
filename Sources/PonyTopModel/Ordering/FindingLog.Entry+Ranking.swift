import PonyExpress
import PonyExpressMonitor

extension FindingLog.Entry {
    /// The entry's key in selections: the finding's identity.
    package var key: String { id }
    /// The order findings are shown and reported in, by what a developer must act on first: by category (a leak,
    /// then an over-subscription, which a leak often causes, then slowness, then churn and notes), then oldest
    /// first within a category (a cause is seen before what follows from it), then by identity so that the order is
    /// stable between frames.
    ///
    /// The findings pane, the details view and the reports all use this one ordering.
    ///
    /// - Parameter findings: Findings in any order.
    /// - Returns: The findings ranked.
    package static func ranked(_ findings: [FindingLog.Entry]) -> [FindingLog.Entry] {
        findings.sorted { lhs, rhs in
            ranksBefore(
                (lhs.finding.category, lhs.finding.firstSeen, lhs.id),
                (rhs.finding.category, rhs.finding.firstSeen, rhs.id))
        }
    }

    /// Whether one finding comes before another in ``ranked(_:)``'s order, for lists ranked by other dates (the
    /// report's findings log) that must rank as the pane does.
    ///
    /// - Parameters:
    ///   - lhs: The first finding's category, when it was first seen and id.
    ///   - rhs: The second finding's.
    /// - Returns: `true` when the first is shown first.
    package static func ranksBefore(
        _ lhs: (category: Finding.Category, firstSeen: Nanoseconds, id: String),
        _ rhs: (category: Finding.Category, firstSeen: Nanoseconds, id: String)
    ) -> Bool {
        let (left, right) = (severity(of: lhs.category), severity(of: rhs.category))
        if left != right { return left < right }
        if lhs.firstSeen != rhs.firstSeen { return lhs.firstSeen < rhs.firstSeen }
        return lhs.id < rhs.id
    }

    /// The categories in the order of ``ranked(_:)``, as help says it.
    package static let rankedCategories: [Finding.Category] = [.leak, .oversubscription, .slow, .churn]

    /// A category's place in the ranking: lower comes first; a category not ranked, last.
    static func severity(of category: Finding.Category) -> Int {
        rankedCategories.firstIndex(of: category) ?? rankedCategories.count
    }
}
