import PonyExpress

/// A registration removed because its weakly held recipient (or exact sender) was released.
package struct PruneRow: Equatable, Sendable {
    /// The released recipient's type, if it was an object.
    package var recipientType: TypeIdentity?
    /// The mail type it was registered for.
    package var mailType: TypeIdentity
    /// Where it was registered.
    package var site: SourceLocation
    /// How long the registration lived, in nanoseconds.
    package var lifetime: UInt64
    /// What was released: the recipient or the exact sender.
    package var reason: Prune.Reason
    /// Nanoseconds since the prune.
    package var age: UInt64

    /// Creates a row.
    package init(
        recipientType: TypeIdentity?, mailType: TypeIdentity, site: SourceLocation, lifetime: UInt64,
        reason: Prune.Reason,
        age: UInt64 = 0
    ) {
        self.recipientType = recipientType
        self.mailType = mailType
        self.site = site
        self.lifetime = lifetime
        self.reason = reason
        self.age = age
    }

    /// Who was pruned: the object type, or what was released for a block.
    package var recipientName: String { Self.recipientName(recipientType, reason: reason) }

    /// Who was pruned: an object's type name, or for a block, what was released.
    static func recipientName(_ type: TypeIdentity?, reason: Prune.Reason) -> String {
        type?.name ?? "block (\(reason.word) released)"
    }
}
