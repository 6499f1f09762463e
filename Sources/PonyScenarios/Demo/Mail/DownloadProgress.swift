import PonyExpress

/// Demo mail: a download made progress. Posted by ``DownloadManager``.
public struct DownloadProgress: Mail, Hashable, Sendable, Codable {
    /// Which download.
    public let downloadID: Int
    /// How much is done, from 0 to 1.
    public let fraction: Double

    /// Creates the event.
    public init(downloadID: Int, fraction: Double) {
        self.downloadID = downloadID
        self.fraction = fraction
    }

    init(random: UInt64) {
        self.init(downloadID: Int(random % 8), fraction: Double((random >> 8) % 1_001) / 1_000)
    }
}
