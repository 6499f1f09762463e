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
}
