import PonyExpress

/// When each finding was first seen in the app, by any judge of one monitor that judges it with the same rule
/// parameters: so that a viewer attaching late, or a judge that missed a snapshot, dates a finding from the app's
/// first sighting (by its finding logger, its metrics, another viewer), not from its own.
///
/// A sighting is forgotten ``forgetAfter`` after the last judge saw it, and the ledger holds at most ``capacity``
/// findings (the least recently seen go first), so its memory is bounded by the findings themselves.
package final class SightingLedger: Sendable {
    /// How long after its last sighting a finding that no judge sees any more is forgotten: one that comes back
    /// later is a new sighting.
    package static let forgetAfter: Nanoseconds = 60_000_000_000
    /// The most findings it remembers.
    package static let capacity = 4_096

    private struct Sighting {
        var first: Nanoseconds
        var last: Nanoseconds
    }

    private struct State {
        var sightings: [String: Sighting] = [:]
        var lastSweep: Nanoseconds = 0
    }

    private let state = Locked(State())

    /// An empty ledger.
    package init() {}

    /// Notes that `key` (a finding's id and its rule's parameters) is seen at `time`.
    ///
    /// - Returns: When it was first seen, by any judge, since it was last forgotten.
    package func sighted(_ key: String, at time: Nanoseconds) -> Nanoseconds {
        state.withLock { state in
            if time &- state.lastSweep > Self.forgetAfter / 4 || state.sightings.count >= Self.capacity {
                Self.sweep(&state, at: time)
            }
            var sighting = state.sightings[key] ?? Sighting(first: time, last: time)
            sighting.first = Swift.min(sighting.first, time)
            sighting.last = Swift.max(sighting.last, time)
            state.sightings[key] = sighting
            return sighting.first
        }
    }

    /// Forgets every sighting: when the app resets its monitor or attaches it to another post office.
    package func removeAll() {
        state.withLock { $0 = State() }
    }

    /// How many findings it remembers.
    package var count: Int { state.withLock { $0.sightings.count } }

    private static func sweep(_ state: inout State, at time: Nanoseconds) {
        state.lastSweep = time
        state.sightings = state.sightings.filter { time <= $0.value.last || time &- $0.value.last <= forgetAfter }
        guard state.sightings.count >= capacity else { return }
        let newest = state.sightings.sorted { $0.value.last > $1.value.last }.prefix(capacity * 3 / 4)
        state.sightings = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
