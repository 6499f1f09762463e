import Dispatch
import Foundation

/// Waits for a condition by polling it until a deadline, so that a test which would hang fails instead.
///
/// - Parameters:
///   - seconds: How long to wait before giving up.
///   - interval: How often to check, in seconds.
///   - condition: Checked until it returns `true`.
/// - Returns: Whether the condition became true before the deadline.
@discardableResult
public func waitUntil(
    timeout seconds: Double = 5, pollingEvery interval: Double = 0.002, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while true {
        if try condition() { return true }
        if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// Runs `body` on a new thread and waits for it with a deadline. A body that deadlocks fails the wait rather than
/// hanging the test run (its thread is left behind).
///
/// - Returns: Whether the body finished in time.
@discardableResult
public func finishes(within seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return done.wait(timeout: .now() + seconds) == .success
}

/// Runs `body(index)` on `count` threads that start together, and waits for all of them with a deadline.
///
/// - Returns: Whether every thread finished in time.
@discardableResult
public func concurrently(
    _ count: Int, within seconds: Double = 30, _ body: @escaping @Sendable (_ index: Int) -> Void
) -> Bool {
    let gate = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            gate.wait()
            body(index)
            group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    for _ in 0..<count { gate.signal() }
    return group.wait(timeout: .now() + seconds) == .success
}

/// Waits for a condition from async code, suspending between checks instead of blocking a thread of the
/// cooperative pool, until a deadline.
///
/// - Parameters:
///   - seconds: How long to wait before giving up.
///   - isolation: The caller's actor, where the condition is checked; leave the default.
///   - condition: Checked until it returns `true`.
/// - Returns: Whether the condition became true before the deadline.
@discardableResult
public func eventually(
    timeout seconds: Double = 5, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}
