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
    /// Runs a new registration's extras, after `.registered` was reported.
    func finish(_ extras: RegistrationExtras, taps: TapList?) {
        let registration = extras.registration
        if let exceeded = extras.exceeded {
            exceeded.limits.report(
                RecipientLimitExceeded(recipient: registration.info, limit: exceeded.limit, count: exceeded.count))
        }
        extras.replay?.deliver(registration, self, taps)
    }
}
