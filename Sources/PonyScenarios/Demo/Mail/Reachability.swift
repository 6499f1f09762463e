import PonyExpress

/// Demo mail: the network's reachability changed. Posted by ``NetworkMonitor``.
public enum Reachability: Mail, Hashable, Sendable, CaseIterable, Codable {
    /// Reachable over Wi-Fi.
    case wifi
    /// Reachable over a cellular network.
    case cellular
    /// Not reachable.
    case offline

    init(random: UInt64) {
        self = Reachability.allCases[Int(random % UInt64(Reachability.allCases.count))]
    }
}
