import Dispatch

/// The checks of ended scopes waiting for their grace period, run together by one timer.
///
/// A timer per scope cost a request ~9 µs (a Dispatch timer made, armed and fired); here a scope's end appends its
/// check under a lock, and one timer at a time, armed for the earliest check plus ``slack``, runs every check that is
/// due. A check runs no earlier than its due time and at most about ``slack`` later.
enum ScopeChecks {
    /// How late a check may run, so that checks due close together share one timer.
    static let slack: Nanoseconds = 10_000_000

    private struct Pending {
        /// Checks by due time, earliest first.
        var checks: [(due: Nanoseconds, run: @Sendable () -> Void)] = []
        /// When the armed timer fires; `nil` when none is armed.
        var armedFor: Nanoseconds?
    }

    private static let pending = Locked(Pending())

    /// Runs `check` once `delay` has passed.
    static func schedule(after delay: Nanoseconds, _ check: @escaping @Sendable () -> Void) {
        let due = MonotonicClock.now() &+ delay
        let arm = pending.withLock { pending -> Nanoseconds? in
            // Scopes mostly share a grace period, so a new check is due last: look from the end.
            var index = pending.checks.count
            while index > 0, pending.checks[index - 1].due > due { index -= 1 }
            pending.checks.insert((due, check), at: index)
            let fireAt = due &+ slack
            if let armed = pending.armedFor, armed <= fireAt { return nil }
            pending.armedFor = fireAt
            return fireAt
        }
        if let arm { self.arm(at: arm) }
    }

    private static func arm(at time: Nanoseconds) {
        let now = MonotonicClock.now()
        let wait = time > now ? time - now : 0
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(Int(wait)), execute: fire)
    }

    /// Runs the checks that are due, and arms the timer for the next.
    @Sendable private static func fire() {
        let now = MonotonicClock.now()
        let (due, next) = pending.withLock { pending -> ([@Sendable () -> Void], Nanoseconds?) in
            let count = pending.checks.prefix { $0.due <= now }.count
            let due = pending.checks.prefix(count).map(\.run)
            pending.checks.removeFirst(count)
            guard let first = pending.checks.first else {
                pending.armedFor = nil
                return (due, nil)
            }
            let fireAt = first.due &+ slack
            // Another timer, armed for an earlier check that came later, may still be on its way.
            if let armed = pending.armedFor, armed > now, armed <= fireAt { return (due, nil) }
            pending.armedFor = fireAt
            return (due, fireAt)
        }
        if let next { arm(at: next) }
        for check in due { check() }
    }
}
