import Synchronization

/// How many viewers an agent serves, over all its listeners, against ``MonitorAgent/Limits/maximumViewers``.
final class ViewerCount: Sendable {
    private let count = Atomic<Int>(0)

    /// The viewers served now.
    var current: Int { count.load(ordering: .relaxed) }

    /// Counts one more viewer if that stays within `limit`.
    ///
    /// - Returns: Whether the viewer was admitted (and must ``leave()`` when it goes).
    func admit(limit: Int) -> Bool {
        var current = count.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Counts a viewer that left.
    func leave() {
        count.subtract(1, ordering: .acquiringAndReleasing)
    }
}
