import NIOCore
import PonyExpress

/// The metrics endpoint's connections, oldest first, so that a new one can take the place of a connection that is not
/// being answered: a slot cannot be held by a peer that stays silent or trickles, however many such peers connect.
///
/// A scraper sends its whole request within milliseconds of connecting and is answered at once, so it is evicted only
/// if ``MetricsEndpoint/maximumConnections`` newer connections arrive in between; one that holds a connection open
/// between scrapes is the oldest, and the first to go when room is needed.
final class MetricsPeers: Sendable {
    private struct Peer {
        let id: ObjectIdentifier
        let channel: any Channel
        var answering = false
    }

    private let peers = Locked<[Peer]>([])

    /// Admits `channel`, closing the oldest connection that is not being answered if the endpoint is full.
    /// - Returns: Whether it was admitted: `false` only when every connection is being answered.
    func admit(_ channel: any Channel, limit: Int) -> Bool {
        let (admitted, evicted) = peers.withLock { peers -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if peers.count >= limit {
                guard let oldest = peers.firstIndex(where: { !$0.answering }) else { return (false, nil) }
                evicted = peers.remove(at: oldest).channel
            }
            peers.append(Peer(id: ObjectIdentifier(channel), channel: channel))
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    /// Marks whether `channel` is being answered (a whole request came and its answer is not yet written).
    func setAnswering(_ channel: any Channel, _ answering: Bool) {
        let id = ObjectIdentifier(channel)
        peers.withLock { peers in
            if let index = peers.firstIndex(where: { $0.id == id }) { peers[index].answering = answering }
        }
    }

    /// Forgets `channel`, which closed.
    func leave(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        peers.withLock { peers in peers.removeAll { $0.id == id } }
    }
}
