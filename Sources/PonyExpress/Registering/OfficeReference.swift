/// What the handler of a once registration needs to unregister it: its post office, held weakly, and its id.
final class OfficeReference: @unchecked Sendable {
    /// Set under the post office's lock when the registration is added, before any delivery can read them.
    private weak var office: PostOffice?
    private var id = RecipientId(rawValue: 0)

    /// Records the post office and the id the registration was given.
    func attach(to office: PostOffice, id: RecipientId) {
        self.office = office
        self.id = id
    }

    /// The handler of a once registration: the handler, then the registration unregisters itself.
    ///
    /// The unregistration runs on the delivering thread, still inside the run; it waits for no one, since other
    /// threads that entered a run of the registration find it claimed and leave at once. Taps see its
    /// `.unregistered` just before the run's `.delivered`.
    func retiring<Contents, Sender>(
        _ body: @escaping (Contents, Sender?, AnyObject?) -> Void
    ) -> (Contents, Sender?, AnyObject?) -> Void {
        { mail, sender, recipient in
            body(mail, sender, recipient)
            self.office?.unregister(self.id)
        }
    }
}
