import Dispatch
import PonyExpress

/// The real monotonic clock (`CLOCK_MONOTONIC`), the time base of every tap event.
///
/// With this clock the monitor buckets events by the timestamps they carry, without reading the clock again.
public struct SystemClock: MonitorClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Nanoseconds {
        MonotonicClock.now()
    }
}
