import PonyExpress

/// One live registration as a snapshot's join reads it: plain values only, so that reading 100,000 of them retains
/// no string. The whole ``RecipientRegistry/Entry`` is looked up by ``id`` for the few a snapshot shows.
struct LiveRegistration {
    let id: RecipientId
    let mailType: TypeIdentity
    let siteIndex: Int
    /// When it was registered, on the monitor's clock.
    let registeredAt: Nanoseconds
    let isDuplicate: Bool
    let isBlock: Bool
    /// Its queue's label, as an index into ``RegistrationOrder/queueLabels``, or `nil` for synchronous delivery.
    let queue: Int?

    init(_ entry: RecipientRegistry.Entry, queue: Int?) {
        self.init(
            id: entry.info.id, mailType: entry.info.mailType, siteIndex: entry.siteIndex,
            registeredAt: entry.registeredAt, isDuplicate: entry.isDuplicate, isBlock: entry.info.kind == .block,
            queue: queue)
    }

    private init(
        id: RecipientId, mailType: TypeIdentity, siteIndex: Int, registeredAt: Nanoseconds, isDuplicate: Bool,
        isBlock: Bool, queue: Int?
    ) {
        self.id = id
        self.mailType = mailType
        self.siteIndex = siteIndex
        self.registeredAt = registeredAt
        self.isDuplicate = isDuplicate
        self.isBlock = isBlock
        self.queue = queue
    }

    /// The same registration with its duplicate mark as it is now.
    func marked(duplicate: Bool) -> LiveRegistration {
        guard duplicate != isDuplicate else { return self }
        return LiveRegistration(
            id: id, mailType: mailType, siteIndex: siteIndex, registeredAt: registeredAt, isDuplicate: duplicate,
            isBlock: isBlock, queue: queue)
    }
}
