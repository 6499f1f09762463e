extension Registration {
    /// Claims the one delivery of a once registration: clears ``isActive`` if it is still set.
    ///
    /// Called inside the entry handshake in place of the check that the registration is active. Of the threads
    /// that deliver it at once, exactly one wins; the others find it inactive, as if it had been unregistered.
    /// - Returns: Whether this thread won and calls the handler.
    @inline(__always)
    func claim() -> Bool {
        isActive.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged
    }
}

extension PostOffice {
    /// The handler of a once registration: the handler, then the registration unregisters itself.
    ///
    /// The unregistration runs on the delivering thread, still inside the run, so plain registrations pay nothing
    /// for it; it waits for no one, since other threads that entered a run of the registration find it claimed
    /// and leave at once. Taps see its `.unregistered` just before the run's `.delivered`.
    func retiring<Contents: Mail, Sender: AnyObject>(
        _ body: @escaping (Contents, Sender?, AnyObject?) -> Void, id: RecipientId
    ) -> (Contents, Sender?, AnyObject?) -> Void {
        let reference = OfficeReference(self)
        return { mail, sender, recipient in
            body(mail, sender, recipient)
            reference.office?.unregister(id)
        }
    }
}
