import PonyExpress

/// A delivery tap that keeps every event, in order, for tests to inspect.
public final class RecordingTap: DeliveryTap {
    private let events = Locked<[TapEvent]>([])

    /// Creates an empty recording.
    public init() {}

    public func receive(_ event: TapEvent) {
        events.withLock { $0.append(event) }
    }

    /// Everything recorded so far.
    public var recorded: [TapEvent] { events.withLock { $0 } }

    /// Forgets everything recorded so far.
    public func clear() { events.withLock { $0.removeAll() } }

    /// The registrations recorded.
    public var registered: [RecipientInfo] {
        recorded.compactMap { if case .registered(let info) = $0 { info } else { nil } }
    }

    /// The unregistrations recorded.
    public var unregistered: [Unregistration] {
        recorded.compactMap { if case .unregistered(let event) = $0 { event } else { nil } }
    }

    /// The posts recorded.
    public var posted: [Posting] {
        recorded.compactMap { if case .posted(let event) = $0 { event } else { nil } }
    }

    /// The deliveries recorded.
    public var delivered: [Delivery] {
        recorded.compactMap { if case .delivered(let event) = $0 { event } else { nil } }
    }

    /// The skips recorded.
    public var skipped: [Skip] {
        recorded.compactMap { if case .skipped(let event) = $0 { event } else { nil } }
    }

    /// The prunes recorded.
    public var pruned: [Prune] {
        recorded.compactMap { if case .pruned(let event) = $0 { event } else { nil } }
    }
}

extension RecordingTap {
    /// The scope checks recorded.
    public var scopeEnds: [ScopeEnd] {
        recorded.compactMap { if case .scopeEnded(let event) = $0 { event } else { nil } }
    }
}
