/// A weak reference to a post office, kept by the handler of a once registration, which unregisters itself.
final class OfficeReference: @unchecked Sendable {
    /// Set once, before the handler is shared.
    weak var office: PostOffice?

    init(_ office: PostOffice) {
        self.office = office
    }
}
