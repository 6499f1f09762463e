/// One handler run.
public struct Delivery: Hashable, Sendable {
    /// The post this delivery belongs to.
    public let postId: UInt64
    /// The recipient that ran.
    public let recipient: RecipientId
    /// The dynamic type of the posted value.
    public let mailType: TypeIdentity
    /// The queue label for queued delivery, `nil` for synchronous delivery on the posting thread.
    public let queueLabel: String?
    /// When `post` was called.
    public let postedAt: Nanoseconds
    /// When the handler started.
    public let startedAt: Nanoseconds
    /// When the handler returned.
    public let finishedAt: Nanoseconds
    /// Whether this run replayed kept mail to a new ``RegistrationOptions/replay`` registration rather than
    /// delivering a post; a replay has no post: its ``postId`` is 0 and its ``postedAt`` is when the registration was made.
    public internal(set) var isReplay: Bool = false

    /// Time from `post` to the handler's start: the queue wait for queued delivery.
    public var wait: Nanoseconds { startedAt &- postedAt }
    /// How long the handler ran.
    public var duration: Nanoseconds { finishedAt &- startedAt }
}
