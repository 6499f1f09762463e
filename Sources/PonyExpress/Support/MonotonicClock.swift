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

    /// The current time on the same clock at the resolution of the kernel's tick (a few milliseconds):
    /// `CLOCK_MONOTONIC_COARSE`, read from the vDSO without touching the hardware counter, a few nanoseconds a call
    /// where ``now()`` takes tens. For times that are only ever compared in seconds, such as a registration's age.
    ///
    /// It never runs ahead of ``now()``: a coarse reading is at most one tick behind a fine one taken at the same
    /// moment, so a time read with ``now()`` after it is never earlier. Subtract with a clamp all the same.
    @inline(__always)
    package static func coarseNow() -> Nanoseconds {
        #if os(Linux)
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
            return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #else
            return now()
        #endif
    }
}

extension Nanoseconds {
    /// The time from `earlier` to this time, or 0 when `earlier` is the later one: two readings of the clock taken
    /// on different threads, or a coarse one beside a fine one, can come in either order.
    @inline(__always)
    package func elapsed(since earlier: Nanoseconds) -> Nanoseconds {
        self > earlier ? self - earlier : 0
    }
}
