/// The problems a ``ScenarioDecoder`` found in one file, so that one run reports every independent problem instead of
/// the first alone.
final class ProblemLog {
    /// The most problems kept; a file with more reports these and says how many it left out.
    static let limit = 20

    private var errors: [ScenarioError] = []
    private var dropped = 0

    /// Notes a problem.
    func record(_ error: ScenarioError) {
        if errors.count < Self.limit { errors.append(error) } else { dropped += 1 }
    }

    /// The first problem in the file with the others in its ``ScenarioError/others`` in file order, or `nil` when
    /// there was none.
    var combined: ScenarioError? {
        let ordered = errors.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.line ?? Int.max, lhs.element.column ?? Int.max, lhs.offset)
            let right = (rhs.element.line ?? Int.max, rhs.element.column ?? Int.max, rhs.offset)
            return left < right
        }.map(\.element)
        guard let first = ordered.first else { return nil }
        return first.adding(others: Array(ordered.dropFirst()), unreported: dropped)
    }
}
