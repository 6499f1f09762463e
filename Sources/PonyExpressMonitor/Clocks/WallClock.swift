#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock (`CLOCK_REALTIME`), in seconds since 1970: what a snapshot, a hello and relayed mail are stamped
/// with when they leave the process, so that another process (or a later replay) can tell when they were taken.
/// Durations inside a process use the monotonic clock (``SystemClock``), never this one.
package enum WallClock {
    /// Seconds since 1970, to the nanosecond the system gives.
    package static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
