import PonyExpress

/// A source of monotonic time in nanoseconds, which the monitor reads for its rate windows and snapshot times.
///
/// Use ``SystemClock`` in an app and ``ManualClock`` in a test, where advancing time by hand makes rates exact.
public protocol MonitorClock: Sendable {
    /// The current time in nanoseconds. Successive calls never go backwards.
    func now() -> Nanoseconds
}
