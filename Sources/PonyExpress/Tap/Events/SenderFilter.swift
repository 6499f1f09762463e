/// Which senders a registration accepts.
public enum SenderFilter: Hashable, Sendable, Codable {
    /// The handler has no sender parameter: any sender, `nil` included.
    case any
    /// The handler takes `S?`: a `nil` sender or an instance of `S` (or a subclass).
    case optional(TypeIdentity)
    /// The handler takes `S`: only an instance of `S` (or a subclass).
    case required(TypeIdentity)
    /// Registered with `sender:`: only mail posted by exactly that instance, of the given type.
    case exact(TypeIdentity)
}
