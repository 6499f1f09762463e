import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock-striped shards the hot path records into. Posting threads are spread over them by a hash of the
/// thread, so that they rarely wait for each other; a snapshot merges them.
///
/// Each shard is a lock word, a ``ShardState`` and a ``RepeatedPosts`` in a slot of its own, aligned to a cache
/// line so that shards do not share lines. The lock is a spin-then-yield lock rather than a `pthread_mutex_t`: taking
/// it is one atomic compare-and-exchange and releasing it one plain store, where a mutex costs an atomic operation
/// and a call into libc each way. It suits the shards because they are rarely contended and held briefly: a posting thread holds
/// its shard for one event, or for one batch of a post's handler runs, and a snapshot for one shard's merge.
final class ShardTable: @unchecked Sendable {
    /// One shard: pointers into its slot. Trivially copyable, so handing it around costs no reference counting.
    struct Shard {
        let word: UnsafeMutablePointer<Atomic<UInt32>>
        let state: UnsafeMutablePointer<ShardState>
        /// The posts one thread repeats within a second, counted without the lock.
        let repeats: UnsafeMutablePointer<RepeatedPosts>

        @inline(__always)
        func lock() {
            if word.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
            lockContended()
        }

        /// Waits for the holder: spins briefly on a plain load, then yields the processor between attempts, so
        /// that a holder preempted on a busy machine gets to run.
        @inline(never)
        func lockContended() {
            var attempts = 0
            while true {
                if word.pointee.load(ordering: .relaxed) == 0,
                    word.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
                {
                    return
                }
                attempts += 1
                if attempts > 64 { sched_yield() }
            }
        }

        @inline(__always)
        func unlock() { word.pointee.store(0, ordering: .releasing) }

        @inline(__always)
        func withLock<T>(_ body: (UnsafeMutablePointer<ShardState>) throws -> T) rethrows -> T {
            lock()
            defer { unlock() }
            return try body(state)
        }
    }

    let count: Int
    private let shift: UInt64
    private let slots: UnsafeMutableRawPointer
    private static let lineSize = 128
    private static let stateOffset = roundUp(
        MemoryLayout<Atomic<UInt32>>.size, to: MemoryLayout<ShardState>.alignment)
    private static let repeatsOffset = roundUp(
        stateOffset + MemoryLayout<ShardState>.size, to: MemoryLayout<RepeatedPosts>.alignment)
    private static let slotStride = roundUp(repeatsOffset + MemoryLayout<RepeatedPosts>.size, to: lineSize)

    /// Makes the smallest power of two of shards that is at least `minimum`.
    init(minimum: Int) {
        let power = Swift.max(0, Int.bitWidth - (Swift.max(1, minimum) - 1).leadingZeroBitCount)
        count = 1 << power
        shift = UInt64(64 - power)
        slots = .allocate(byteCount: count * Self.slotStride, alignment: Self.lineSize)
        for index in 0..<count {
            let slot = slots + index * Self.slotStride
            slot.bindMemory(to: Atomic<UInt32>.self, capacity: 1).initialize(to: Atomic(0))
            (slot + Self.stateOffset).bindMemory(to: ShardState.self, capacity: 1).initialize(to: ShardState())
        }
        // The repeat records allocate, and allocating them between the states' first tables moved where later
        // tables land in the heap: a monitored post to 100 then took 15 % longer on the same instructions
        // (`ponybench repeat post-100-monitor`, 5.29 s against 4.62 s), a stall on addresses, not work.
        for index in 0..<count {
            let slot = slots + index * Self.slotStride
            (slot + Self.repeatsOffset).bindMemory(to: RepeatedPosts.self, capacity: 1).initialize(to: RepeatedPosts())
        }
    }

    deinit {
        for index in 0..<count {
            let shard = self[index]
            shard.word.deinitialize(count: 1)
            shard.state.deinitialize(count: 1)
            shard.repeats.deinitialize(count: 1)
        }
        slots.deallocate()
    }

    subscript(index: Int) -> Shard {
        let slot = slots + index * Self.slotStride
        return Shard(
            word: slot.assumingMemoryBound(to: Atomic<UInt32>.self),
            state: (slot + Self.stateOffset).assumingMemoryBound(to: ShardState.self),
            repeats: (slot + Self.repeatsOffset).assumingMemoryBound(to: RepeatedPosts.self))
    }

    /// Every shard.
    var all: [Shard] { (0..<count).map { self[$0] } }

    /// The shard of the calling thread.
    @inline(__always)
    func current() -> Shard { self[of: Self.currentThread()] }

    /// The shard of a thread: a Fibonacci hash of its id.
    @inline(__always)
    subscript(of thread: UInt64) -> Shard {
        self[Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> shift)]
    }

    /// The calling thread's id, never 0: `pthread_self()`. No two live threads share one.
    @inline(__always)
    static func currentThread() -> UInt64 {
        #if canImport(Darwin)
            UInt64(UInt(bitPattern: pthread_self()))
        #else
            UInt64(pthread_self())
        #endif
    }

    private static func roundUp(_ value: Int, to multiple: Int) -> Int {
        (value + multiple - 1) / multiple * multiple
    }
}
