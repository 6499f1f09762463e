import Synchronization

private let nextRecipientValue = Atomic<UInt64>(1)

/// Identifies one registration with a ``PostOffice``.
///
/// Every `register` call returns a new id, unique across all post offices and threads for the life of the process.
/// Each post office takes ids from the process in blocks of 1,024, so the ids of two post offices are not
/// consecutive.
/// Pass it to ``PostOffice/unregister(_:)-(RecipientId)`` to stop delivery; unknown or repeated ids are ignored.
public struct RecipientId: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The raw number behind the id. Ids of one post office grow in registration order.
    public let rawValue: UInt64

    /// Wraps a raw value, for tests and tools that rebuild ids from recorded events.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Reserves `count` consecutive raw values for one post office and returns the first.
    static func reserve(_ count: UInt64) -> UInt64 {
        nextRecipientValue.wrappingAdd(count, ordering: .relaxed).oldValue
    }

    public static func < (lhs: RecipientId, rhs: RecipientId) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "#\(rawValue)" }
}
