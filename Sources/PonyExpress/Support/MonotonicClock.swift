#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic timestamp in nanoseconds: `CLOCK_MONOTONIC`, the clock of `MonotonicClock.now()`.
public typealias Nanoseconds = UInt64

/// The package's one clock: every timestamp in tap events, the monitor's ``Nanoseconds``, the scenario runner's
/// phases and ponytop's refresh come from here, so that times taken in different modules compare.
package enum MonotonicClock {
    /// The current time on `CLOCK_MONOTONIC`.
    @inline(__always)
    package static func now() -> Nanoseconds {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
