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
        let time = timespec.realtime()
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Nanoseconds since 1970: what the relay stamps mail with, so that a receiver on another host can measure the
    /// lag (as well as the two hosts' clocks agree).
    package static func nanoseconds() -> UInt64 {
        let time = timespec.realtime()
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

extension timespec {
    fileprivate static func realtime() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }
}
