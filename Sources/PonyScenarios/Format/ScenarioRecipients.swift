/// A group of recipients of one kind: how many, for which mail, on which queue, filtering which senders, how long
/// each lives and how it ends, which is where misbehaviours are planted.
///
/// Every `lifetime` seconds (staggered over the group) one recipient's life ends as `end` says and, unless the
/// group has reached its `limit`, another takes its place.
public struct ScenarioRecipients: Sendable, Hashable {
    /// How a recipient's life ends.
    public enum End: String, CaseIterable, Sendable, Hashable {
        /// It unregisters, and a new one replaces it. Healthy.
        case unregister = "unregister"
        /// The object is released without unregistering, leaving a dead weak reference for the post office to
        /// prune, and a new one replaces it. Objects only: a block given this end is unregistered instead.
        case release = "release"
        /// It is never unregistered and stays alive, and a new one is added beside it: registrations accumulate.
        case leak = "leak"
        /// The same object registers again, as a screen that registers on every appearance: duplicate
        /// registrations accumulate. Objects only: a block given this end leaks instead.
        case reregister = "reregister"
    }

    /// Whether each recipient is an object (and of which class) or a block.
    public let kind: ScenarioRecipientKind
    /// The mail types each recipient registers for, one registration per type.
    public let mail: [ScenarioMailType]
    /// How many recipients the group starts with.
    public let count: Int
    /// Where their mail is delivered.
    public let queue: ScenarioQueue
    /// Which senders they accept.
    public let sender: ScenarioSenderFilter
    /// How long each recipient lives, in seconds; `nil` for the whole run.
    public let lifetime: Double?
    /// How each recipient's life ends.
    public let end: End
    /// How long each delivery takes, in seconds (at most 0.1): a slow handler when above zero.
    public let handlerTime: Double
    /// The most registrations the group holds at once, which bounds `leak` and `reregister`.
    public let limit: Int
    /// The scope each recipient's life is (a request, a screen), named so: its registrations are made in a
    /// `MailScope` that ends when the life ends; `nil` for none.
    public let scope: String?
    /// Every how many lives one ends with `leak` instead of ``end`` (while the group is under its ``limit``): a
    /// request handler that leaks one registration in N; `nil` for never.
    public let leakEvery: Int?

    /// Creates a group.
    ///
    /// - Parameters:
    ///   - kind: Object class or block.
    ///   - mail: The mail types each recipient registers for.
    ///   - count: How many recipients the group starts with.
    ///   - queue: Where their mail is delivered.
    ///   - sender: Which senders they accept.
    ///   - lifetime: Seconds each lives; `nil` for the whole run.
    ///   - end: How each life ends.
    ///   - handlerTime: Seconds each delivery takes.
    ///   - limit: The most registrations held at once.
    ///   - scope: The name of the scope each life is, or `nil`.
    ///   - leakEvery: Every how many lives one leaks, or `nil`.
    public init(
        kind: ScenarioRecipientKind, mail: [ScenarioMailType], count: Int = 1, queue: ScenarioQueue = .none,
        sender: ScenarioSenderFilter = .any, lifetime: Double? = nil, end: End = .unregister,
        handlerTime: Double = 0, limit: Int = 1_000, scope: String? = nil, leakEvery: Int? = nil
    ) {
        self.scope = scope
        self.leakEvery = leakEvery
        self.kind = kind
        self.mail = mail
        self.count = count
        self.queue = queue
        self.sender = sender
        self.lifetime = lifetime
        self.end = end
        self.handlerTime = handlerTime
        self.limit = limit
    }
}
