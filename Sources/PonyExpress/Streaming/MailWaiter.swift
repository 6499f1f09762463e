import Dispatch

/// One wait of ``PostOffice/next(_:sender:where:timeout:file:filePath:line:)-(_,AnyObject?,_,_,_,_,_)``: the first of
/// a matching mail, the timeout and the task's cancellation ends it, and whichever ends it unregisters the wait's
/// registration at once, without waiting for anything.
///
/// The registration is made before the task suspends, so a mail posted in between is kept here until the
/// continuation arrives; and the id arrives after the registration, so an end that comes first is kept until it does.
final class MailWaiter<M: Sendable>: @unchecked Sendable {
    private enum State {
        case waiting(CheckedContinuation<M, any Error>?)
        case ended(Result<M, any Error>?)
    }

    private let lock = Lock()
    private var state = State.waiting(nil)
    private var id: RecipientId?
    private var timer: DispatchWorkItem?
    private weak var office: PostOffice?

    init(office: PostOffice) {
        self.office = office
    }

    /// Gives the wait its registration, unregistering it at once if the wait already ended.
    func attach(_ id: RecipientId) {
        let ended = lock.withLock {
            if case .ended = state { return true }
            self.id = id
            return false
        }
        if ended { office?.remove(id, waits: false) }
    }

    /// Schedules the timeout, unless the wait already ended.
    func schedule(_ timer: DispatchWorkItem, after timeout: Duration) {
        let scheduled = lock.withLock {
            if case .ended = state { return false }
            self.timer = timer
            return true
        }
        guard scheduled else { return }
        DispatchQueue.global().asyncAfter(deadline: Self.deadline(after: timeout), execute: timer)
    }

    /// `timeout` from now; one too long for a `DispatchTime` (`.seconds(Int64.max)`, say) never comes, instead of
    /// trapping on the overflow of its nanoseconds.
    static func deadline(after timeout: Duration) -> DispatchTime {
        let (seconds, attoseconds) = timeout.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return .now() }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow, !overflowAgain, let span = Int(exactly: nanoseconds) else { return .distantFuture }
        return .now() + .nanoseconds(span)
    }

    /// Hands the task's continuation over, resuming it at once if the wait already ended.
    func wait(_ continuation: CheckedContinuation<M, any Error>) {
        let result: Result<M, any Error>? = lock.withLock {
            switch state {
            case .waiting:
                state = .waiting(continuation)
                return nil
            case .ended(let result):
                state = .ended(nil)
                return result
            }
        }
        if let result { continuation.resume(with: result) }
    }

    /// Ends the wait with `result`, if nothing ended it first; returns whether this call ended it.
    @discardableResult
    func end(_ result: Result<M, any Error>) -> Bool {
        let (ended, continuation, id, timer) = lock.withLock {
            () -> (Bool, CheckedContinuation<M, any Error>?, RecipientId?, DispatchWorkItem?) in
            guard case .waiting(let continuation) = state else { return (false, nil, nil, nil) }
            // Without a continuation yet, the result waits here for it.
            state = .ended(continuation == nil ? result : nil)
            defer {
                self.id = nil
                self.timer = nil
            }
            return (true, continuation, self.id, self.timer)
        }
        guard ended else { return false }
        timer?.cancel()
        if let id { office?.remove(id, waits: false) }
        continuation?.resume(with: result)
        return true
    }

    /// Whether the wait still takes mail: cheap enough to ask before the predicate on every delivery.
    var isWaiting: Bool {
        lock.withLock {
            if case .waiting = state { return true }
            return false
        }
    }
}
