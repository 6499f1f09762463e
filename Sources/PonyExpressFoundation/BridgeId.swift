/// One route of a ``NotificationBridge``, for ``NotificationBridge/remove(_:)``.
public struct BridgeId: Hashable, Comparable, Sendable {
    /// The route's number, unique within its bridge.
    public let rawValue: UInt64

    /// Orders ids by the time their routes were added.
    public static func < (lhs: BridgeId, rhs: BridgeId) -> Bool { lhs.rawValue < rhs.rawValue }
}
