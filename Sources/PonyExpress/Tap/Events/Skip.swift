/// A matched recipient that did not receive a post.
public struct Skip: Hashable, Sendable {
    /// Why it was skipped.
    public enum Reason: Hashable, Sendable {
        /// The sender did not pass the registration's sender filter.
        case senderMismatch
        /// The recipient was unregistered after the post began and before its turn came, or another thread pruned
        /// it first (this post found it released too, but the prune is reported once, by the thread that removed it).
        case unregistered
    }

    /// The post.
    public let postId: UInt64
    /// The recipient.
    public let recipient: RecipientId
    /// The dynamic type of the posted value.
    public let mailType: TypeIdentity
    /// Why it was skipped.
    public let reason: Reason
}
