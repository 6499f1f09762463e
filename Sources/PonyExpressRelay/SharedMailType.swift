import Foundation
import PonyExpress
import PonyExpressMonitor

/// One shared mail type: its stable name and version, how to post an arriving envelope's mail, and its counts.
final class SharedMailType: Sendable {
    /// The name other processes know it by.
    let name: String
    /// Its format version; envelopes of another version are refused.
    let version: Int
    /// The Swift type.
    let mailType: TypeIdentity
    /// Decodes an envelope's mail (its `m` text's bytes) and posts it into the office with the sender.
    let post: @Sendable (Data, PostOffice, RemoteSender) throws -> Void
    private let counts = Locked(Counts())

    /// Counts and the most recent lags.
    struct Counts {
        var sent: UInt64 = 0
        var received: UInt64 = 0
        var dropped: UInt64 = 0
        var lags: [UInt64] = []
        var nextLag = 0
    }

    /// How many recent lags the percentiles are taken over.
    static let lagCapacity = 1_024

    init<M: Mail & Codable & Sendable>(_ type: M.Type, name: String, version: Int) {
        self.name = name
        self.version = version
        mailType = TypeIdentity(M.self)
        post = { data, office, sender in
            let mail = try JSONDecoder().decode(M.self, from: data)
            office.post(mail, sender: sender, origin: .relayed)
        }
    }

    func countSent(_ count: Int) { counts.withLock { $0.sent += UInt64(count) } }

    func countDropped() { counts.withLock { $0.dropped += 1 } }

    /// Counts an arrival and its lag.
    func countReceived(lag: UInt64) {
        counts.withLock { counts in
            counts.received += 1
            if counts.lags.count < Self.lagCapacity {
                counts.lags.append(lag)
            } else {
                counts.lags[counts.nextLag] = lag
                counts.nextLag = (counts.nextLag + 1) % Self.lagCapacity
            }
        }
    }

    /// The counts and the lag percentiles of the most recent arrivals.
    var figures: RelayFigures {
        let (sent, received, dropped, lags) = counts.withLock { ($0.sent, $0.received, $0.dropped, $0.lags) }
        guard !lags.isEmpty else { return RelayFigures(sent: sent, received: received, dropped: dropped) }
        let sorted = lags.sorted()
        func percentile(_ p: Double) -> UInt64 {
            sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
        return RelayFigures(
            sent: sent, received: received, dropped: dropped, lagSamples: UInt64(sorted.count),
            lagP50: percentile(0.5), lagP99: percentile(0.99))
    }
}
