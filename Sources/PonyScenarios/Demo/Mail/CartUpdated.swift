import PonyExpress

/// Demo mail: the shopping cart changed. Posted by ``CartService``.
public struct CartUpdated: Mail, Hashable, Sendable, Codable {
    /// How many items the cart holds.
    public let itemCount: Int
    /// The cart's total, in cents.
    public let totalCents: Int

    /// Creates the event.
    public init(itemCount: Int, totalCents: Int) {
        self.itemCount = itemCount
        self.totalCents = totalCents
    }

    init(random: UInt64) {
        let items = Int(random % 12)
        self.init(itemCount: items, totalCents: items * Int((random >> 16) % 5_000 + 99))
    }
}
