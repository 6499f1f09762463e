/// The recipient limits an app set on a post office, and what a registration past one does.
struct RecipientLimits {
    /// The limit of every mail type without one of its own.
    var defaultLimit: Int?
    /// Limits by registered mail type.
    var byType: [ObjectIdentifier: Int] = [:]
    /// Called on the registering thread for each registration past a limit.
    var handler: (@Sendable (RecipientLimitExceeded) -> Void)?
    /// Whether a registration past a limit stops a debug build, after the handler ran.
    var assertsInDebugBuilds = false

    /// The limit of the mail type `key` if `count` registrations go past it.
    func exceeded(by count: Int, for key: ObjectIdentifier) -> Int? {
        guard let limit = byType[key] ?? defaultLimit, count > limit else { return nil }
        return limit
    }

    /// Warns through the handler, and stops a debug build if the app asked for it.
    func report(_ breach: RecipientLimitExceeded) {
        handler?(breach)
        if assertsInDebugBuilds {
            assertionFailure(
                "PonyExpress: \(breach.count) recipients of \(breach.recipient.mailType), past the limit of "
                    + "\(breach.limit) (registered at \(breach.recipient.site))")
        }
    }
}

extension PostOffice.State {
    /// Changes the limits, making them on the first change.
    mutating func changeLimits(_ change: (inout RecipientLimits) -> Void) {
        var limits = self.limits ?? RecipientLimits()
        change(&limits)
        self.limits = limits
    }
}
