import Dispatch
import PonyExpress

/// The real monotonic clock: `DispatchTime.now().uptimeNanoseconds`, the time base of every tap event.
///
/// With this clock the monitor buckets events by the timestamps they carry, without reading the clock again.
public struct SystemClock: MonitorClock {
    /// Creates the system clock.
    public init() {}

    public func now() -> Nanoseconds {
        DispatchTime.now().uptimeNanoseconds
    }
}
