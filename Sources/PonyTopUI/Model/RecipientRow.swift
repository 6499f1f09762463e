import PonyExpress

/// One registration: an object and method, or a block, registered for a mail type at a site.
package struct RecipientRow: Equatable, Sendable {
    /// The registration's id, unique in the post office.
    package var id: UInt64
    /// An object of a type, held weakly, and a method; or a block.
    package var kind: RecipientKind
    /// The mail type it registered for.
    package var registeredFor: String
    /// The delivery queue's label, `nil` for synchronous delivery.
    package var queue: String?
    /// Which senders it accepts: any, an optional or required type, or one exact instance.
    package var sender: SenderFilter
    /// Where it was registered (`Module/File.swift:line` when drawn).
    package var site: SourceLocation
    /// Nanoseconds since it registered.
    package var age: UInt64
    /// Handler runs for the shown mail type.
    package var deliveries: UInt64
    /// The same object registered more than once for this mail type.
    package var isDuplicate: Bool
    /// Short markers other parts of the package add (such as `once`), shown after the row and in its details.
    package var markers: [String]
    /// The sender type its mail type requires when that is `VerifiedMail`; `nil` for `Mail`.
    package var requiredSender: String?

    /// Creates a row.
    package init(
        id: UInt64, kind: RecipientKind, registeredFor: String, queue: String?, sender: SenderFilter,
        site: SourceLocation, age: UInt64, deliveries: UInt64, isDuplicate: Bool = false, markers: [String] = [],
        requiredSender: String? = nil
    ) {
        self.requiredSender = requiredSender
        self.id = id
        self.kind = kind
        self.registeredFor = registeredFor
        self.queue = queue
        self.sender = sender
        self.site = site
        self.age = age
        self.deliveries = deliveries
        self.isDuplicate = isDuplicate
        self.markers = markers
    }

    /// The recipient object's type name, `nil` for a block.
    package var objectType: String? { kind.objectType?.name }

    /// Who receives: the object type, or `block`.
    package var recipientName: String { kind.recipientName }

    /// The row's key in selections.
    package var key: String { "#\(id)" }
}
