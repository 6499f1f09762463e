import PonyExpress

/// One registration the post office pruned because its object or exact sender was released.
public struct PruneRecord: Sendable, Codable, Hashable {
    /// The recipient object's type, `nil` for a block (pruned because its exact sender was released).
    public let recipientType: TypeIdentity?
    /// The mail type it was registered for.
    public let mailType: TypeIdentity
    /// Where it was registered.
    public let site: SourceLocation
    /// How long the registration lived, in nanoseconds.
    public let lifetime: Nanoseconds
    /// What was released.
    public let reason: Prune.Reason
    /// When the monitor saw the prune, on the monitor's clock.
    public let time: Nanoseconds

    /// Creates a prune record.
    ///
    /// - Parameters:
    ///   - recipientType: The recipient object's type, `nil` for a block.
    ///   - mailType: The mail type.
    ///   - site: Where it was registered.
    ///   - lifetime: How long it lived.
    ///   - reason: What was released.
    ///   - time: When it was pruned, on the monitor's clock.
    public init(
        recipientType: TypeIdentity?, mailType: TypeIdentity, site: SourceLocation, lifetime: Nanoseconds,
        reason: Prune.Reason, time: Nanoseconds
    ) {
        self.recipientType = recipientType
        self.mailType = mailType
        self.site = site
        self.lifetime = lifetime
        self.reason = reason
        self.time = time
    }
}
