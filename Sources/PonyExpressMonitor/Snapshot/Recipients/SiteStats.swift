import PonyExpress

/// The registrations made at one registration site since the monitor was attached or reset.
///
/// A site is a source location (`file:line`) registering one mail type for one kind of recipient (an object's type,
/// or a block): a helper that registers several mail types from one line has one row for each.
///
/// ```swift
/// for site in snapshot.sites where site.growthLastMinute > 0 {
///     print(site.site?.description ?? "other", "×\(site.live)", "+\(site.growthLast10Seconds) in 10 s")
/// }
/// ```
public struct SiteStats: Sendable, Codable, Hashable {
    /// Where `register` was called, or `nil` for the bucket that gathers every site beyond
    /// ``MonitorSettings/siteCapacity``.
    public let site: SourceLocation?
    /// The mail type registered here; `nil` for the "other" bucket.
    public let mailType: TypeIdentity?
    /// What is registered here: objects of one type, or blocks; `nil` for the "other" bucket.
    public let kind: RecipientKind?
    /// The latest registration made here: its queue, sender filter and time, `nil` for the "other" bucket.
    public let lastRegistration: RecipientInfo?
    /// Live registrations from this site now.
    public let live: Int
    /// Live registrations from this site that are blocks.
    public let liveBlocks: Int
    /// Registrations made.
    public let registered: UInt64
    /// Registrations removed with `unregister`.
    public let unregistered: UInt64
    /// Registrations pruned because their object or exact sender was released.
    public let pruned: UInt64
    /// Live registrations at the end of each of the last completed seconds, oldest first.
    public let history: [Double]
    /// How many more live registrations the site has now than 10 seconds ago (negative when it has fewer); since
    /// the monitor started watching, if that is more recent.
    public let growthLast10Seconds: Int
    /// How many more live registrations the site has now than a minute ago, or since the monitor started watching.
    public let growthLastMinute: Int
    /// How long its oldest live registration has been registered, in nanoseconds; `nil` when none is live.
    public let oldestAge: Nanoseconds?
    /// How long its ended (unregistered or pruned) registrations lived.
    public let lifetimes: LifetimeSummary
    /// Deliveries to its live registrations since the monitor was attached or reset.
    public let deliveries: UInt64
    /// The scopes whose registrations at this site ended and were checked, by name, most leaked first; empty when
    /// no scope that registered here has ended. (A recording made before scopes has none: the wire reads it so.)
    public let scopes: [ScopeCounts]

    /// Creates site statistics.
    ///
    /// - Parameters:
    ///   - site: The source location, `nil` for the "other" bucket.
    ///   - mailType: The mail type registered from it.
    ///   - kind: What is registered there.
    ///   - lastRegistration: The latest registration made there.
    ///   - live: Live registrations.
    ///   - liveBlocks: Live block registrations.
    ///   - registered: Registrations made.
    ///   - unregistered: Registrations removed with `unregister`.
    ///   - pruned: Registrations pruned.
    ///   - history: Live registrations per second, oldest first.
    ///   - growthLast10Seconds: Growth of the live count over the last 10 seconds.
    ///   - growthLastMinute: Growth of the live count over the last minute.
    ///   - oldestAge: The age of the oldest live registration.
    ///   - lifetimes: How long ended registrations lived.
    ///   - deliveries: Deliveries to live registrations.
    ///   - scopes: The scopes that registered here and ended, by name.
    public init(
        site: SourceLocation?, mailType: TypeIdentity?, kind: RecipientKind? = nil,
        lastRegistration: RecipientInfo? = nil, live: Int, liveBlocks: Int, registered: UInt64, unregistered: UInt64,
        pruned: UInt64, history: [Double], growthLast10Seconds: Int = 0, growthLastMinute: Int = 0,
        oldestAge: Nanoseconds? = nil, lifetimes: LifetimeSummary = .none, deliveries: UInt64 = 0,
        scopes: [ScopeCounts] = []
    ) {
        self.site = site
        self.mailType = mailType
        self.kind = kind
        self.lastRegistration = lastRegistration
        self.live = live
        self.liveBlocks = liveBlocks
        self.registered = registered
        self.unregistered = unregistered
        self.pruned = pruned
        self.history = history
        self.growthLast10Seconds = growthLast10Seconds
        self.growthLastMinute = growthLastMinute
        self.oldestAge = oldestAge
        self.lifetimes = lifetimes
        self.deliveries = deliveries
        self.scopes = scopes
    }
}
