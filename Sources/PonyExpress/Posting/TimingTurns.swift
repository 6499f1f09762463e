/// One thread's turns at timing a tapped post, when every timing tap is content with some of them
/// (``DeliveryTap/timingInterval``). A post is timed when it is the thread's turn (one post in the interval), when it
/// is the thread's first post to taps it did not post to last, when the coarse clock moved by ``quietGap`` or more
/// since the thread's last timed post, and after a timed post that was slow (``slowPostPerRun``), so that slow
/// handlers and a thread that posts now and then have every post timed.
///
/// Only the owning thread reads or writes it: deciding writes no memory that another thread writes.
struct TimingTurns {
    /// A post this long after the thread's last timed post on the coarse clock is timed whatever its turn: 1 ms,
    /// which the coarse clock, at the kernel tick's resolution, shows once per tick (4 ms here).
    static let quietGap: Nanoseconds = 1_000_000
    /// A timed post that took at least this long per matched recipient, plus once more, keeps the next post timed:
    /// its clock reads (about 25 ns each) were a thousandth of it or less.
    static let slowPostPerRun: Nanoseconds = 25_000
    private let state: UnsafeMutablePointer<State>

    private struct State {
        var untilNext = 0
        var lastTimed: Nanoseconds = 0
        /// The ``TapList/serial`` of the taps of the thread's last timed post.
        var taps: UInt64 = 0
        /// Whether the thread's last timed post was slow.
        var keepTiming = false
    }

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    /// Whether the post about to start is timed.
    ///
    /// - Parameters:
    ///   - interval: Time one post in this many; at least 1.
    ///   - now: The post's time on the coarse clock.
    ///   - taps: The ``TapList/serial`` of the post's taps.
    @inline(__always)
    func take(interval: Int, now: Nanoseconds, taps: UInt64) -> Bool {
        if state.pointee.untilNext <= 1 || state.pointee.keepTiming || now &- state.pointee.lastTimed >= Self.quietGap
            || state.pointee.taps != taps
        {
            state.pointee = State(untilNext: interval, lastTimed: now, taps: taps)
            return true
        }
        state.pointee.untilNext -= 1
        return false
    }

    /// Notes how long a timed post took, from its start to its last synchronous handler's return.
    ///
    /// - Parameters:
    ///   - elapsed: The post's time.
    ///   - recipients: The registrations it matched.
    @inline(__always)
    func finished(elapsed: Nanoseconds, recipients: Int) {
        state.pointee.keepTiming = elapsed >= Self.slowPostPerRun &* UInt64(recipients + 1)
    }
}
