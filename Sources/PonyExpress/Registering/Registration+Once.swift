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
