/// The registration behind a ``MailStream``: unregistered when the stream and its iterators are released.
final class StreamSubscription: @unchecked Sendable {
    /// Set once, before the subscription is shared.
    private weak var office: PostOffice?
    let id: RecipientId

    init(office: PostOffice, id: RecipientId) {
        self.office = office
        self.id = id
    }

    /// Without waiting for a handler running on another thread, like the stream's end: a stream nobody holds takes
    /// no more values, whatever that handler does.
    deinit {
        office?.remove(id, waits: false)
    }
}
