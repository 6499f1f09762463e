import PonyExpress

/// How long the ended registrations of a site lived: registered until unregistered or pruned.
///
/// The values are bucket bounds, at most 19% above the true lifetimes.
public struct LifetimeSummary: Sendable, Hashable {
    /// How many registrations ended since the monitor was attached or reset.
    public let ended: UInt64
    /// Half of them lived at most this long, in nanoseconds; `nil` when none ended.
    public let median: Nanoseconds?
    /// Nine in ten of them lived at most this long, in nanoseconds; `nil` when none ended.
    public let p90: Nanoseconds?

    /// No registration ended.
    public static let none = LifetimeSummary(ended: 0, median: nil, p90: nil)

    /// Creates a lifetime summary.
    ///
    /// - Parameters:
    ///   - ended: How many registrations ended.
    ///   - median: The median lifetime.
    ///   - p90: The 90th percentile lifetime.
    public init(ended: UInt64, median: Nanoseconds?, p90: Nanoseconds?) {
        self.ended = ended
        self.median = median
        self.p90 = p90
    }
}
