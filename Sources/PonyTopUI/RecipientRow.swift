/// One registration of the selected mail type.
public struct RecipientRow: Equatable, Sendable {
    /// `object` or `block`.
    public var kind: String
    /// The recipient object's type, `nil` for a block.
    public var objectType: String?
    /// The delivery queue's label, `nil` for synchronous delivery.
    public var queue: String?
    /// The sender filter: `any`, `T?`, `T` or `=T` for one exact sender.
    public var sender: String
    /// Where it was registered.
    public var site: String
    /// Handler runs.
    public var deliveries: UInt64
    /// The same object registered more than once for this mail type.
    public var isDuplicate: Bool

    /// Creates a row.
    public init(
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
