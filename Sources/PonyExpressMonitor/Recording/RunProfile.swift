import PonyExpress

/// How long the timed handler runs of one registration site took, as a distribution: runs counted and added up in
/// buckets that double in width, so that a rule can leave out a site's longest runs, where the runs the system
/// preempted land, without the app keeping every run.
///
/// Bucket 0 holds runs under 1,024 ns; bucket `k` the runs from 2^(9+k) to 2^(10+k) ns; the last one everything from
/// about 4.3 s up. Each bucket keeps its runs' count and their exact sum, so a bucket that holds one handler's runs
/// gives their mean exactly, not its bounds. 24 buckets of two 64-bit counters: 384 bytes a site on each shard that
/// timed one of its runs, made on first use.
struct RunProfile: Sendable, Codable, Equatable {
    static let bucketCount = 24
    /// Counts and sums, interleaved: `[count0, sum0, count1, sum1, …]`; empty until the first run.
    private var cells: [UInt64] = []

    /// The bucket a run of `duration` falls in.
    @inline(__always)
    static func bucket(of duration: Nanoseconds) -> Int {
        Swift.min(bucketCount - 1, Swift.max(0, (UInt64.bitWidth - duration.leadingZeroBitCount) - 10))
    }

    /// Counts a timed run.
    @inline(__always)
    mutating func record(_ duration: Nanoseconds) {
        if cells.isEmpty { cells = Array(repeating: 0, count: 2 * Self.bucketCount) }
        let index = 2 * Self.bucket(of: duration)
        cells.withUnsafeMutableBufferPointer { cells in
            cells[index] &+= 1
            cells[index + 1] &+= duration
        }
    }

    /// Adds another shard's runs of the same site.
    mutating func merge(_ other: RunProfile) {
        guard !other.cells.isEmpty else { return }
        guard !cells.isEmpty else {
            cells = other.cells
            return
        }
        for index in cells.indices { cells[index] &+= other.cells[index] }
    }

    /// How many runs it counted.
    var runs: UInt64 {
        stride(from: 0, to: cells.count, by: 2).reduce(0) { $0 &+ cells[$1] }
    }

    /// The mean run with the longest `share` of the runs left out (a trimmed mean), or `nil` without runs.
    ///
    /// The runs are left out from the longest bucket down; in the bucket where the share is reached, the part left
    /// out counts at that bucket's mean. With `share` 0 it is the mean of every run.
    func trimmedMean(leavingOut share: Double) -> Double? {
        let total = runs
        guard total > 0 else { return nil }
        var toDrop = Double(total) * Swift.min(Swift.max(share, 0), 1)
        var keptRuns = Double(total)
        var keptTime = stride(from: 1, to: cells.count, by: 2).reduce(0.0) { $0 + Double(cells[$1]) }
        for bucket in stride(from: Self.bucketCount - 1, through: 0, by: -1) where toDrop > 0 {
            let count = Double(cells[2 * bucket])
            guard count > 0 else { continue }
            let dropped = Swift.min(count, toDrop)
            keptRuns -= dropped
            keptTime -= dropped * Double(cells[2 * bucket + 1]) / count
            toDrop -= dropped
        }
        // Leaving out every run leaves the shortest bucket's mean, not nothing.
        guard keptRuns > 0.5 else {
            let shortest = stride(from: 0, to: cells.count, by: 2).first { cells[$0] > 0 }!
            return Double(cells[shortest + 1]) / Double(cells[shortest])
        }
        return Swift.max(0, keptTime) / keptRuns
    }

    /// Reads a profile, refusing one whose cells are not a whole profile's (a recording is input from outside).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cells = try container.decode([UInt64].self, forKey: .cells)
        guard cells.isEmpty || cells.count == 2 * Self.bucketCount else {
            throw DecodingError.dataCorruptedError(
                forKey: .cells, in: container,
                debugDescription: "a run profile of \(cells.count) cells; expected 0 or \(2 * Self.bucketCount)")
        }
    }

    init() {}

    /// The bytes it takes.
    var estimatedBytes: Int {
        MemoryLayout<Self>.stride + cells.capacity * MemoryLayout<UInt64>.stride
    }
}
