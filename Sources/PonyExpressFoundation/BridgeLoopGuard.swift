/// What a bridge relays from or to: a notification name in one center, a Foundation message type or a mail type.
enum BridgeKey: Hashable, Sendable {
    case name(ObjectIdentifier, String)
    case message(ObjectIdentifier)
    case mail(ObjectIdentifier)
}

/// Keeps bridges from relaying their own traffic back: while a relay runs on a thread, what it relays from and to
/// is marked there, and a relay whose source or destination is marked does nothing.
enum BridgeLoopGuard {
    @TaskLocal private static var inFlight: [BridgeKey] = []

    /// Whether a relay from or to `key` is running on this thread (or task).
    static func isRelaying(_ key: BridgeKey) -> Bool {
        inFlight.contains(key)
    }

    /// Runs `body` with `source` and `destination` marked, unless either is marked already.
    static func relay(from source: BridgeKey, to destination: BridgeKey, _ body: () -> Void) {
        let marked = inFlight
        guard !marked.contains(source), !marked.contains(destination) else { return }
        $inFlight.withValue(marked + [source, destination], operation: body)
    }
}
