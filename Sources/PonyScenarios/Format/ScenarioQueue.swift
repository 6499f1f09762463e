/// Where a demo recipient's mail is delivered: synchronously on the posting thread, on one of three serial queues,
/// or on a concurrent queue. Each runner makes its own queues.
public enum ScenarioQueue: String, CaseIterable, Hashable, Sendable {
    /// Synchronously on the posting thread.
    case none = "none"
    /// A serial queue standing for the main thread's work, labelled `app.ui`.
    case ui = "ui"
    /// A serial queue labelled `app.storage`.
    case storage = "storage"
    /// A serial queue labelled `app.network`.
    case network = "network"
    /// A concurrent queue labelled `app.workers`.
    case workers = "workers"

    /// The dispatch queue's label, or `nil` for synchronous delivery.
    public var label: String? {
        self == .none ? nil : "app.\(rawValue)"
    }

    /// Whether the queue runs deliveries concurrently.
    public var isConcurrent: Bool { self == .workers }
}
