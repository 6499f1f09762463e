/// One registration of the selected mail type.
package struct RecipientRow: Equatable, Sendable {
    /// `object` or `block`.
    package var kind: String
    /// The recipient object's type, `nil` for a block.
    package var objectType: String?
    /// The delivery queue's label, `nil` for synchronous delivery.
    package var queue: String?
    /// The sender filter: `any`, `T?`, `T` or `=T` for one exact sender.
    package var sender: String
    /// Where it was registered.
    package var site: String
    /// Handler runs.
    package var deliveries: UInt64
    /// The same object registered more than once for this mail type.
    package var isDuplicate: Bool

    /// Creates a row.
    package init(
        kind: String, objectType: String?, queue: String?, sender: String, site: String, deliveries: UInt64,
        isDuplicate: Bool
    ) {
        self.kind = kind
        self.objectType = objectType
        self.queue = queue
        self.sender = sender
        self.site = site
        self.deliveries = deliveries
        self.isDuplicate = isDuplicate
    }
}
