/// The relays whose envelopes were authenticated lately: one ``RemoteSender`` each, and the sequence numbers of
/// theirs already seen, so that an envelope sent again is refused.
///
/// Only an envelope that passed the signature and the time window enters, so nobody without the key can add, evict or
/// impersonate an entry. Memory is bounded by ``capacity`` entries of a fixed size: a relay's numbers are tracked as
/// the highest seen and a bitmap of the 64 below it (as IPsec does), which holds since one relay sends in order over
/// one connection. When full, entries quiet for longer than the window go first (an envelope of theirs would be
/// refused as stale anyway); past that the least recently heard goes, and unknown relays' envelopes stamped no later
/// than its last one are refused as replays, since the evicted entry can no longer tell.
struct KnownRelays {
    /// One relay's sender and replay state.
    struct Entry {
        let sender: RemoteSender
        var highest: UInt64
        /// Bit k: number `highest - k` was seen.
        var seen: UInt64
        var lastStamp: UInt64
    }

    /// What became of an envelope.
    enum Admission {
        case admitted(RemoteSender)
        case replayed
    }

    let capacity: Int
    /// The time window, in nanoseconds.
    let window: UInt64
    private(set) var entries: [String: Entry] = [:]
    /// The latest stamp of an entry evicted while still within the window.
    private var evictedStamp: UInt64 = 0

    init(capacity: Int, window: UInt64) {
        self.capacity = capacity
        self.window = window
    }

    /// Records an authenticated envelope's number, or says it was seen.
    ///
    /// - Parameters:
    ///   - envelope: An envelope whose signature and timestamp were checked.
    ///   - now: Wall-clock nanoseconds now.
    mutating func admit(_ envelope: Envelope, now: UInt64) -> Admission {
        if var entry = entries[envelope.r] {
            if envelope.n > entry.highest {
                let shift = envelope.n - entry.highest
                entry.seen = shift >= 64 ? 1 : entry.seen << shift | 1
                entry.highest = envelope.n
            } else {
                let behind = entry.highest - envelope.n
                guard behind < 64, entry.seen & (1 << behind) == 0 else { return .replayed }
                entry.seen |= 1 << behind
            }
            entry.lastStamp = max(entry.lastStamp, envelope.s)
            entries[envelope.r] = entry
            return .admitted(entry.sender)
        }
        guard envelope.s > evictedStamp else { return .replayed }
        if entries.count >= capacity { makeRoom(now: now) }
        let sender = RemoteSender(
            host: PostgresRelay.Refusal.printable(envelope.h), processId: envelope.p,
            instance: PostgresRelay.Refusal.printable(envelope.i), relayId: PostgresRelay.Refusal.printable(envelope.r))
        entries[envelope.r] = Entry(sender: sender, highest: envelope.n, seen: 1, lastStamp: envelope.s)
        return .admitted(sender)
    }

    private mutating func makeRoom(now: UInt64) {
        let oldest = now > window ? now - window : 0
        entries = entries.filter { $0.value.lastStamp >= oldest }
        guard entries.count >= capacity, let quietest = entries.min(by: { $0.value.lastStamp < $1.value.lastStamp })
        else { return }
        evictedStamp = max(evictedStamp, quietest.value.lastStamp)
        entries[quietest.key] = nil
    }
}
