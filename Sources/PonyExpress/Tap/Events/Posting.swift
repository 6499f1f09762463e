/// One call to `post`.
public struct Posting: Hashable, Sendable {
    /// A number that ties this post to its deliveries and skips: unique across threads and post offices, never 0.
    /// Posts from one thread get rising ids; posts from different threads are not ordered by id.
    public let postId: UInt64
    /// The dynamic type of the posted value.
    public let mailType: TypeIdentity
    /// The dynamic type of the sender, or `nil` when posted without one.
    public let senderType: TypeIdentity?
    /// How many registrations matched the mail type (before sender filters).
    public let matched: Int
    /// When `post` was called.
    public let time: Nanoseconds
    /// Where the post came from: ``PostOrigin/local`` unless a relay or a bridge posted it.
    public let origin: PostOrigin

    /// A post as taps see it.
    public init(
        postId: UInt64, mailType: TypeIdentity, senderType: TypeIdentity?, matched: Int, time: Nanoseconds,
        origin: PostOrigin = .local
    ) {
        self.postId = postId
        self.mailType = mailType
        self.senderType = senderType
        self.matched = matched
        self.time = time
        self.origin = origin
    }
}
