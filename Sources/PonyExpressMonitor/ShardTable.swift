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
/// Each shard is a pthread mutex and a ``ShardState`` in a slot of its own, aligned to a cache line so that shards
/// do not share lines. The package's `Lock` is a class in another module: every call to it is an out-of-line call
/// with reference counting, which the hot path cannot afford twice per event, so the slots hold their mutexes
/// inline.
final class ShardTable: @unchecked Sendable {
    /// One shard: pointers into its slot. Trivially copyable, so handing it around costs no reference counting.
    struct Shard {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let state: UnsafeMutablePointer<ShardState>

        @inline(__always)
        func lock() { pthread_mutex_lock(mutex) }

        @inline(__always)
        func unlock() { pthread_mutex_unlock(mutex) }

        @inline(__always)
        func withLock<T>(_ body: (UnsafeMutablePointer<ShardState>) throws -> T) rethrows -> T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(state)
        }
    }

    let count: Int
    private let shift: UInt64
    private let slots: UnsafeMutableRawPointer
    private static let lineSize = 128
    private static let stateOffset = roundUp(
        MemoryLayout<pthread_mutex_t>.size, to: MemoryLayout<ShardState>.alignment)
    private static let slotStride = roundUp(stateOffset + MemoryLayout<ShardState>.size, to: lineSize)

    /// Makes the smallest power of two of shards that is at least `minimum`.
    init(minimum: Int) {
        let power = Swift.max(0, Int.bitWidth - (Swift.max(1, minimum) - 1).leadingZeroBitCount)
        count = 1 << power
        shift = UInt64(64 - power)
        slots = .allocate(byteCount: count * Self.slotStride, alignment: Self.lineSize)
        for index in 0..<count {
            let slot = slots + index * Self.slotStride
            let mutex = slot.bindMemory(to: pthread_mutex_t.self, capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            (slot + Self.stateOffset).bindMemory(to: ShardState.self, capacity: 1).initialize(to: ShardState())
        }
    }

    deinit {
        for index in 0..<count {
            let shard = self[index]
            pthread_mutex_destroy(shard.mutex)
            shard.mutex.deinitialize(count: 1)
            shard.state.deinitialize(count: 1)
        }
        slots.deallocate()
    }

    subscript(index: Int) -> Shard {
        let slot = slots + index * Self.slotStride
        return Shard(
            mutex: slot.assumingMemoryBound(to: pthread_mutex_t.self),
            state: (slot + Self.stateOffset).assumingMemoryBound(to: ShardState.self))
    }

    /// Every shard.
    var all: [Shard] { (0..<count).map { self[$0] } }

    /// The shard of the calling thread: a Fibonacci hash of the thread's id.
    @inline(__always)
    func current() -> Shard {
        #if canImport(Darwin)
            let thread = UInt64(UInt(bitPattern: pthread_self()))
        #else
            let thread = UInt64(pthread_self())
        #endif
        return self[Int(truncatingIfNeeded: (thread &* 0x9E37_79B9_7F4A_7C15) >> shift)]
    }

    private static func roundUp(_ value: Int, to multiple: Int) -> Int {
        (value + multiple - 1) / multiple * multiple
    }
}
