import Synchronization

/// How many peers a listener serves at once, against its limit: an agent's viewers over all its listeners
/// (``MonitorAgent/Limits/maximumViewers``), a metrics endpoint's connections.
package final class PeerCount: Sendable {
    private let count = Atomic<Int>(0)

    /// The peers served now.
    package var current: Int { count.load(ordering: .relaxed) }

    package init() {}

    /// Counts one more peer if that stays within `limit`.
    ///
    /// - Returns: Whether the peer was admitted (and must ``leave()`` when it goes).
    package func admit(limit: Int) -> Bool {
        var current = count.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Counts a peer that left.
    package func leave() {
        count.subtract(1, ordering: .acquiringAndReleasing)
    }
}
