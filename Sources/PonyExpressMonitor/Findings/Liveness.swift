import PonyExpress

/// Which registrations the post office still holds alive: a weak recipient released without unregistering stays in
/// the monitor's table until a post prunes it, and must not look like a leak meanwhile.
///
/// Asks the post office once, and only if a rule needs to know.
final class Liveness {
    private let office: PostOffice?
    private var alive: Set<RecipientId>?

    /// - Parameter office: The post office to ask, or `nil` to take every registration the monitor knows as alive.
    init(office: PostOffice?) {
        self.office = office
    }

    /// Whether the post office holds `id` with its recipient and exact sender alive.
    func isAlive(_ id: RecipientId) -> Bool {
        guard let office else { return true }
        if alive == nil { alive = Set(office.recipients().map(\.id)) }
        return alive!.contains(id)
    }
}
