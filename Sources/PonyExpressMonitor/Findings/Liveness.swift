import PonyExpress

/// Which registrations the post office still holds alive: a weak recipient released without unregistering stays in
/// the monitor's table until a post prunes it, and must not look like a leak meanwhile.
///
/// Asks the post office about a registration only when a rule needs to know, once per snapshot.
final class Liveness {
    private let office: PostOffice?
    private var known: [RecipientId: Bool] = [:]

    /// - Parameter office: The post office to ask, or `nil` to take every registration the monitor knows as alive.
    init(office: PostOffice?) {
        self.office = office
    }

    /// Whether the post office holds `id` with its recipient and exact sender alive.
    func isAlive(_ id: RecipientId) -> Bool {
        guard let office else { return true }
        if let alive = known[id] { return alive }
        // One registration at a time: listing all of them held the post office's lock, and the app's `register`,
        // for the whole table (100,000 registrations) on every snapshot that judged a finding.
        let alive = office.isLive(id)
        known[id] = alive
        return alive
    }

    /// Whether each of `ids` is alive, asked of the post office 1,024 at a time and not remembered: for counting the
    /// living recipients of every mail type, where one question each costs a lock each.
    func areAlive(_ ids: [RecipientId]) -> [Bool] {
        guard let office else { return Array(repeating: true, count: ids.count) }
        return office.areLive(ids)
    }
}
