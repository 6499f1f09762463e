/// What a registration with options, or one past a recipient limit, does once the post office's lock is released:
/// warn about the limit, then replay kept mail.
///
/// A class, so that a plain registration, which has none, carries only a `nil` reference out of the lock.
final class RegistrationExtras {
    /// The new registration.
    let registration: Registration
    /// The limit the registration went past, how many registrations its mail type has with it, and the limits
    /// (with their action) in force when it was made.
    let exceeded: (limit: Int, count: Int, limits: RecipientLimits)?
    /// The kept mail to deliver to it at once.
    let replay: MailReplay?

    init(registration: Registration, exceeded: (limit: Int, count: Int, limits: RecipientLimits)?, replay: MailReplay?)
    {
        self.registration = registration
        self.exceeded = exceeded
        self.replay = replay
    }
}

extension PostOffice {
    /// Runs a new registration's extras, after `.registered` was reported; out of line, off the plain path.
    @inline(never)
    func finish(_ extras: RegistrationExtras, taps: TapList?) {
        let registration = extras.registration
        if let exceeded = extras.exceeded {
            exceeded.limits.report(
                RecipientLimitExceeded(recipient: registration.info, limit: exceeded.limit, count: exceeded.count))
        }
        extras.replay?.deliver(registration, self, taps)
    }
}

extension PostOffice.State {
    /// What a registration with options, or one the post office has limits for, does once it is added: marks it
    /// over its limit, lets a once registration find its post office, and takes kept mail for a replay.
    /// Called under the lock, before the registration joins its bucket.
    @inline(never)
    func extras(
        for registration: Registration, in bucket: Bucket, key: ObjectIdentifier, office: PostOffice
    ) -> RegistrationExtras? {
        let count = bucket.registrations.count + 1
        let exceeded = limits?.exceeded(by: count, for: key)
        registration.isOverLimit = exceeded != nil
        registration.retirement?.takeUnretainedValue().attach(to: office, id: registration.id)
        guard !registration.options.isEmpty || exceeded != nil else { return nil }
        return RegistrationExtras(
            registration: registration, exceeded: exceeded.map { (limit: $0, count: count, limits: limits!) },
            replay: registration.options.contains(.replay)
                ? keepers[ObjectIdentifier(registration.mailType)]?.replay() : nil)
    }
}
