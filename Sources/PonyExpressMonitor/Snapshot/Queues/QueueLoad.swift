import PonyExpress

/// The live recipients of one registration site that run on one queue, and the handler time they spend on it: what
/// keeps the queue busy.
public struct QueueLoad: Sendable, Codable, Hashable {
    /// Where they were registered.
    public let site: SourceLocation
    /// The mail type they registered for.
    public let mailType: TypeIdentity
    /// What they are: objects of one type, or blocks.
    public let kind: RecipientKind
    /// How many of them are live.
    public let recipients: Int
    /// Their handler runs since the monitor was attached or reset.
    public let deliveries: UInt64
    /// The total time their handlers ran, in nanoseconds.
    public let handlerTime: Nanoseconds
    /// Their share of the handler time of the queue's live recipients, 0...1.
    public let share: Double

    /// Creates a queue load.
    ///
    /// - Parameters:
    ///   - site: Where the recipients were registered.
    ///   - mailType: The mail type they registered for.
    ///   - kind: Objects of one type, or blocks.
    ///   - recipients: How many are live.
    ///   - deliveries: Their handler runs.
    ///   - handlerTime: Their total handler time.
    ///   - share: Their share of the queue's handler time.
    public init(
        site: SourceLocation, mailType: TypeIdentity, kind: RecipientKind, recipients: Int, deliveries: UInt64,
        handlerTime: Nanoseconds, share: Double
    ) {
        self.site = site
        self.mailType = mailType
        self.kind = kind
        self.recipients = recipients
        self.deliveries = deliveries
        self.handlerTime = handlerTime
        self.share = share
    }
}

extension QueueLoad {
    /// How a queue finding names the recipients that fill the queue: `handler time: a block for Ping at
    /// App/Feed.swift:12 (92%)`.
    var handlerTimeClause: String {
        "handler time: \(kind.name) for \(mailType.name) at \(site) (\(Units.decimal(share * 100, places: 0))%)"
    }
}
