/// A registration that took its mail type past the recipient limit the app set.
///
/// Handed to the handler set with ``PostOffice/onRecipientLimitExceeded(assertingInDebugBuilds:_:)``; taps and the
/// monitor see the same registration with ``RecipientInfo/isOverLimit`` set.
public struct RecipientLimitExceeded: Hashable, Sendable {
    /// The registration that went past the limit; it is registered and receives mail as usual.
    public let recipient: RecipientInfo
    /// The limit of its mail type.
    public let limit: Int
    /// How many registrations its mail type has with it, counting those whose object or sender was released and
    /// that are not pruned yet.
    public let count: Int
}
