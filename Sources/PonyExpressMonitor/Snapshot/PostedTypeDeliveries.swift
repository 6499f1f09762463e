import PonyExpress

/// A recipient's deliveries of one posted mail type: a subclass of the class it registered for.
public struct PostedTypeDeliveries: Sendable, Hashable {
    /// The posted (dynamic) mail type.
    public let mailType: TypeIdentity
    /// How many times the recipient's handler ran for mail of this type.
    public let deliveries: UInt64
    /// The total time those runs took, in nanoseconds.
    public let handlerTime: Nanoseconds

    /// Creates a count of one posted type's deliveries.
    ///
    /// - Parameters:
    ///   - mailType: The posted mail type.
    ///   - deliveries: Handler runs for it.
    ///   - handlerTime: Their total time.
    public init(mailType: TypeIdentity, deliveries: UInt64, handlerTime: Nanoseconds) {
        self.mailType = mailType
        self.deliveries = deliveries
        self.handlerTime = handlerTime
    }
}
