import PonyExpress
import Synchronization

/// A clock that moves only when told to, so that tests can check rates and windows exactly.
///
/// ```swift
/// let clock = ManualClock()
/// let monitor = PostOfficeMonitor(clock: clock)
/// monitor.attach(to: office)
/// office.post(Ping())
/// clock.advance(seconds: 1)
/// monitor.snapshot().totals.postsPerSecond  // 1.0
/// ```
public final class ManualClock: MonitorClock {
    private let current: Atomic<UInt64>

    /// Creates a clock that reads `start` until it is advanced.
    ///
    /// - Parameter start: The initial time in nanoseconds.
    public init(start: Nanoseconds = 0) {
        current = Atomic(start)
    }

    public func now() -> Nanoseconds {
        current.load(ordering: .acquiring)
    }

    /// Moves the clock forward.
    ///
    /// - Parameter nanoseconds: How far to move it.
    public func advance(by nanoseconds: Nanoseconds) {
        current.wrappingAdd(nanoseconds, ordering: .acquiringAndReleasing)
    }

    /// Moves the clock forward by a number of seconds; negative or non-finite values are ignored.
    ///
    /// - Parameter seconds: How far to move it, in seconds.
    public func advance(seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        advance(by: Nanoseconds((seconds * 1e9).rounded()))
    }
}
