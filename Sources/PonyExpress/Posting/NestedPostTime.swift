import Synchronization

/// What one thread's timed handler runs spend in the posts they make, so that a run's own work (its self time, as a
/// profiler says) is told apart from its nested posts, whose recipients' runs account for that time themselves.
///
/// A post made inside a timed run reads the clock when it starts and ends, and adds its whole time to ``time``; a
/// post nested in it leaves ``time`` where its outer post will set it, so nothing counts twice. A run's nested time
/// is what ``time`` grew by while it ran. Outside timed runs a post pays one relaxed load.
///
/// Only the owning thread reads or writes it; atomics, relaxed, only so that no method is `mutating`, which would be a
/// write to the whole record that other threads read (see ``AddressStack``).
struct NestedPostTime: ~Copyable {
    /// How many timed handler runs this thread is inside.
    private let timedRuns = Atomic<Int>(0)
    /// The time posts made inside timed runs took, in all, on this thread.
    private let time = Atomic<Nanoseconds>(0)

    /// A post inside a timed run: when it started, and ``time`` then.
    struct Post {
        let startedAt: Nanoseconds
        let timeBefore: Nanoseconds
    }

    /// Whether this thread is inside a timed handler run: its posts are timed too, so that the time the run spends
    /// in them is its recipients' handler time.
    var isInsideTimedRun: Bool { timedRuns.load(ordering: .relaxed) > 0 }

    /// Starts timing a post when this thread is inside a timed run; `nil` otherwise.
    @inline(__always)
    func startPost() -> Post? {
        guard timedRuns.load(ordering: .relaxed) > 0 else { return nil }
        return Post(startedAt: MonotonicClock.now(), timeBefore: time.load(ordering: .relaxed))
    }

    /// Ends a post started with ``startPost()``: its whole time counts once, whatever was nested in it.
    @inline(__always)
    func endPost(_ post: Post) {
        time.store(post.timeBefore &+ (MonotonicClock.now() &- post.startedAt), ordering: .relaxed)
    }

    /// Enters a timed run; pass the result to ``leaveTimedRun(enteredAt:)``.
    @inline(__always)
    func enterTimedRun() -> Nanoseconds {
        timedRuns.add(1, ordering: .relaxed)
        return time.load(ordering: .relaxed)
    }

    /// Leaves a timed run; returns the time it spent in posts it made.
    @inline(__always)
    func leaveTimedRun(enteredAt before: Nanoseconds) -> Nanoseconds {
        timedRuns.subtract(1, ordering: .relaxed)
        return time.load(ordering: .relaxed) &- before
    }
}
