import NIOCore
import PonyExpress

/// How one connection's work ends: the first of its parts (the listener, the sender, the channel closing) to end says
/// why, and the parts still running are then waited for, but only for a bounded time.
///
/// The parts run as tasks of their own rather than in a task group, because a group waits for every child however
/// long it takes: one part that never ends (a `LISTEN` whose continuation the client library never resumes after the
/// server died, as postgres-nio's issue 601 reports of some versions) would keep the relay from ever reconnecting,
/// with its posts piling up unsent.
final class ConnectionWork: Sendable {
    private struct State {
        var ended = false
        var failure: (any Error)?
        var endWaiter: CheckedContinuation<(any Error)?, Never>?
        var running: Set<String>
        var drainWaiter: CheckedContinuation<Bool, Never>?
    }

    private let state: Locked<State>

    /// - Parameter parts: The names of the parts that report ``finished(_:)``.
    init(parts: Set<String>) {
        state = Locked(State(running: parts))
    }

    /// Ends the connection's work, with `failure` as the reason if it is the first end; later ends are ignored.
    func end(_ failure: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<(any Error)?, Never>? in
            guard !state.ended else { return nil }
            state.ended = true
            state.failure = failure
            defer { state.endWaiter = nil }
            return state.endWaiter
        }
        waiter?.resume(returning: failure)
    }

    /// Waits for the first end, and returns its reason.
    func firstEnd() async -> (any Error)? {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> (done: Bool, failure: (any Error)?) in
                if state.ended { return (true, state.failure) }
                state.endWaiter = continuation
                return (false, nil)
            }
            if ended.done { continuation.resume(returning: ended.failure) }
        }
    }

    /// A part's task has returned.
    func finished(_ part: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.running.remove(part) != nil, state.running.isEmpty else { return nil }
            defer { state.drainWaiter = nil }
            return state.drainWaiter
        }
        waiter?.resume(returning: true)
    }

    /// The parts still running.
    var running: Set<String> { state.withLock { $0.running } }

    /// Waits until every part has finished or `limit` has passed, whichever comes first.
    ///
    /// - Returns: Whether every part finished.
    func partsFinished(within limit: TimeAmount, on eventLoop: any EventLoop) async -> Bool {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.running.isEmpty { return true }
                state.drainWaiter = continuation
                return false
            }
            if done { return continuation.resume(returning: true) }
            eventLoop.scheduleTask(in: limit) {
                let waiter = self.state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    defer { state.drainWaiter = nil }
                    return state.drainWaiter
                }
                waiter?.resume(returning: false)
            }
        }
    }
}
