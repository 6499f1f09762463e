import PonyExpress

/// The agent's viewer slots (``MonitorAgent/Limits/maximumViewers``), over every listener, and who gives one up when
/// all are taken: no peer holds a slot by staying silent.
///
/// A newcomer that finds every slot taken is given the slot of a peer that has not sent a whole request since its
/// hello (the oldest such), else of the peer that has been quiet longest, if that is at least
/// ``MonitorAgent/Limits/quietViewerBound``; else it is refused. So 16 connections that read the hello and say nothing
/// cannot keep a `ponytop --attach` out, while a paused or stopped ponytop keeps its slot for as long as nobody needs
/// it (and reconnects when it resumes, if it lost it).
final class ViewerSlots: Sendable {
    private struct Slot {
        /// When the peer last sent a whole request, on the monotonic clock; `nil` while it has sent none.
        var lastRequest: UInt64?
        let admitted: UInt64
        /// Tells the peer why and closes its connection.
        let evict: @Sendable (String) -> Void
    }

    private struct State {
        var nextId: UInt64 = 1
        var slots: [UInt64: Slot] = [:]
    }

    private let state = Locked(State())

    /// The viewers served now.
    var current: Int { state.withLock { $0.slots.count } }

    /// Admits a viewer within `limit`, making room as the type's documentation says.
    ///
    /// - Parameters:
    ///   - limit: The most viewers at once.
    ///   - quietBound: Seconds without a request after which a viewer that has spoken gives up its slot to a
    ///     newcomer.
    ///   - evict: Closes the new viewer's connection with a reason, should it have to give up its slot later.
    /// - Returns: The viewer's slot, to pass to ``heard(from:)`` and ``leave(_:)``; `nil` when it is refused.
    func admit(limit: Int, quietBound: Double, evict: @escaping @Sendable (String) -> Void) -> UInt64? {
        let now = MonotonicClock.now()
        let (id, evicted) = state.withLock { state -> (UInt64?, (Slot, String)?) in
            var evicted: (Slot, String)?
            if state.slots.count >= limit {
                let silent = state.slots.filter { $0.value.lastRequest == nil }.min {
                    $0.value.admitted < $1.value.admitted
                }
                let quietest = state.slots.min { ($0.value.lastRequest ?? 0) < ($1.value.lastRequest ?? 0) }
                if let (key, slot) = silent {
                    state.slots[key] = nil
                    evicted = (slot, "closed: a new viewer needed this connection's slot, and it had sent no request")
                } else if let (key, slot) = quietest, let last = slot.lastRequest,
                    Double(now &- last) / 1e9 >= quietBound
                {
                    state.slots[key] = nil
                    let quiet = Double(Int(Double(now &- last) / 1e8)) / 10
                    evicted = (
                        slot,
                        "closed: a new viewer needed this connection's slot, and it had sent no request for "
                            + "\(quiet) s (MonitorAgent.Limits.quietViewerBound)"
                    )
                } else {
                    return (nil, nil)
                }
            }
            let id = state.nextId
            state.nextId += 1
            state.slots[id] = Slot(lastRequest: nil, admitted: now, evict: evict)
            return (id, evicted)
        }
        if let (slot, reason) = evicted { slot.evict(reason) }
        return id
    }

    /// Notes that the viewer in `slot` sent a whole request.
    func heard(from slot: UInt64) {
        let now = MonotonicClock.now()
        state.withLock { $0.slots[slot]?.lastRequest = now }
    }

    /// Frees a slot; a slot given to a newcomer already is not freed twice.
    func leave(_ slot: UInt64) {
        state.withLock { _ = $0.slots.removeValue(forKey: slot) }
    }
}
