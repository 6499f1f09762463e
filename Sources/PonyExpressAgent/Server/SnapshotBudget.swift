import Glibc
import PonyExpress

/// The share of a core that every viewer's snapshots together may take (``MonitorAgent/Limits/snapshotShare``),
/// shared by all the sessions of one agent.
///
/// After a snapshot that took `t` of the agent thread's CPU time, the next one starts `t * (1 / share - 1)` later at
/// the earliest, so that over any stretch of requests the snapshots' CPU time is at most `share` of the wall time.
/// CPU time, not wall time: on a busy machine, a snapshot whose thread waited for a core did not cost the app that
/// wait.
final class SnapshotBudget: Sendable {
    private let share: Double
    /// The monotonic time before which no snapshot starts.
    private let nextStart = Locked<UInt64>(0)

    init(share: Double) {
        self.share = share
    }

    /// The earliest monotonic time, in nanoseconds, at which a snapshot may start.
    var earliestStart: UInt64 { nextStart.withLock { $0 } }

    /// Counts a snapshot that took `cpu` nanoseconds of CPU time and ended at `end`.
    func spent(cpu: UInt64, endingAt end: UInt64) {
        let rest = UInt64((Double(cpu) * (1 / share - 1)).rounded())
        nextStart.withLock { $0 = Swift.max($0, end &+ rest) }
    }

    /// The CPU time the calling thread has used, in nanoseconds.
    static func threadCPUTime() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
