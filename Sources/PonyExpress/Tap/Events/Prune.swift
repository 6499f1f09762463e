/// A registration removed because a weakly held object was released.
public struct Prune: Hashable, Sendable {
    /// What was released.
    public enum Reason: Hashable, Sendable, Codable {
        /// The recipient object was released without unregistering.
        case recipientReleased
        /// The exact sender the registration was filtered on was released.
        case senderReleased
    }

    /// The registration that was removed.
    public let recipient: RecipientInfo
    /// What was released.
    public let reason: Reason
    /// When it was pruned.
    public let time: Nanoseconds

    /// How long the registration lived; `0` if the prune's time reads earlier than the registration's, which has the
    /// resolution of the kernel's tick (see ``RecipientInfo/registeredAt``).
    public var age: Nanoseconds { time.elapsed(since: recipient.registeredAt) }
}
