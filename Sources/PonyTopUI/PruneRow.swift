import PonyExpress

/// A registration removed because its weakly held recipient (or exact sender) was released.
public struct PruneRow: Equatable, Sendable {
    /// The released recipient's type, if it was an object.
    public var recipientType: String?
    /// The mail type it was registered for.
    public var mailType: TypeIdentity
    /// Where it was registered.
    public var site: String
    /// How long the registration lived, in nanoseconds.
    public var lifetime: UInt64
    /// `recipient` or `sender`: what was released.
    public var reason: String

    /// Creates a row.
    public init(recipientType: String?, mailType: TypeIdentity, site: String, lifetime: UInt64, reason: String) {
        self.recipientType = recipientType
        self.mailType = mailType
        self.site = site
        self.lifetime = lifetime
        self.reason = reason
    }
}
