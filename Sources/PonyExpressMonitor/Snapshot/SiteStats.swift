import PonyExpress

/// The registrations made at one source location (`file:line`) since the monitor was attached or reset.
public struct SiteStats: Sendable, Codable, Hashable {
    /// Where `register` was called, or `nil` for the bucket that gathers every site beyond
    /// ``MonitorSettings/siteCapacity``.
    public let site: SourceLocation?
    /// The mail type of the first registration seen from this site.
    public let mailType: TypeIdentity?
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

    /// Creates site statistics.
    ///
    /// - Parameters:
    ///   - site: The source location, `nil` for the "other" bucket.
    ///   - mailType: The mail type first registered from it.
    ///   - live: Live registrations.
    ///   - liveBlocks: Live block registrations.
    ///   - registered: Registrations made.
    ///   - unregistered: Registrations removed with `unregister`.
    ///   - pruned: Registrations pruned.
    ///   - history: Live registrations per second, oldest first.
    public init(
        site: SourceLocation?, mailType: TypeIdentity?, live: Int, liveBlocks: Int, registered: UInt64,
        unregistered: UInt64, pruned: UInt64, history: [Double]
    ) {
        self.site = site
        self.mailType = mailType
        self.live = live
        self.liveBlocks = liveBlocks
        self.registered = registered
        self.unregistered = unregistered
        self.pruned = pruned
        self.history = history
    }
}
