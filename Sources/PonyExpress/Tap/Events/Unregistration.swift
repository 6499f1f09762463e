/// A recipient removed with `unregister`.
public struct Unregistration: Hashable, Sendable {
    /// The registration's id.
    public let id: RecipientId
    /// The mail type it was registered for.
    public let mailType: TypeIdentity
    /// When it was removed.
    public let time: Nanoseconds
}
