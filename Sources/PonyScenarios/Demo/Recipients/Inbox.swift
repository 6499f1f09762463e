import Dispatch
import PonyExpress
import Synchronization

/// What a demo recipient does with each delivery: counts it and, for a planted slow handler, takes its time.
final class Inbox: Sendable {
    /// How long each delivery takes, in nanoseconds.
    let workNanoseconds: UInt64
    private let deliveries = Atomic<UInt64>(0)

    init(workNanoseconds: UInt64) {
        self.workNanoseconds = workNanoseconds
    }

    /// How many deliveries arrived.
    var delivered: UInt64 { deliveries.load(ordering: .relaxed) }

    /// Takes one delivery.
    @inline(__always)
    func take() {
        deliveries.add(1, ordering: .relaxed)
        if workNanoseconds > 0 { Inbox.work(for: workNanoseconds) }
    }

    /// Busy-waits for short work (as a handler that computes would) and sleeps for long work.
    static func work(for nanoseconds: UInt64) {
        if nanoseconds < 200_000 {
            let end = MonotonicClock.now() + nanoseconds
            while MonotonicClock.now() < end {}
        } else {
            ThreadSleep.sleep(seconds: Double(nanoseconds) / 1e9)
        }
    }
}
