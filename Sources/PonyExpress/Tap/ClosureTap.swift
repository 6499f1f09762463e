/// A ``DeliveryTap`` made from a closure.
public final class ClosureTap: DeliveryTap {
    private let body: @Sendable (TapEvent) -> Void

    /// Wraps `body`, which is called once for every event.
    public init(_ body: @escaping @Sendable (TapEvent) -> Void) {
        self.body = body
    }

    public func receive(_ event: TapEvent) {
        body(event)
    }
}
