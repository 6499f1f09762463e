import PonyExpress
import Synchronization

/// Posts that repeat an earlier one of their second, counted by one thread without taking its shard's lock: untimed
/// posts to one recipient, of a (mail type, recipient) pair the thread posted before in the same second of the
/// monitor's clock, for up to ``capacity`` pairs a second. Whoever takes the shard's lock next adds them to the
/// shard's counters (``PostOfficeMonitor``'s `absorbRepeats`): a snapshot, a reset, or the thread itself when its
/// second ends.
///
/// Most posts repeat an earlier one: an app posts the same few kinds of mail to the same recipients many times a
/// second. With the lock, a repeat costs an atomic read-modify-write (`lock cmpxchg`, a tenth of a monitored post to
/// one recipient); here it costs a few plain loads and a store. The counts stay exact:
///
/// - One thread counts here, the ``owner``: the first that asked, with the lock held. Other threads of the shard use
///   its lock as before. Two live threads never share an id, so each pair's count has one writer, which adds with a
///   load and a store; a thread that gets the id of one that ended takes over its counts, which that one no longer
///   writes.
/// - The keys (the pairs, the second's bounds and the origin) change only with the lock held, and only by the owner,
///   which reads them without the lock; every other reader holds the lock. The fields the owner reads without the
///   lock are atomics read and written relaxed all the same, so that ThreadSanitizer sees no race when a thread
///   inherits the id of one that ended.
/// - ``LockedPart/absorbed`` says how much of each pair's count is in the shard's counters already; it is read and
///   written only with the lock held, so that each repeat is added once, by whichever holder of the lock comes first.
///
/// Every method is non-mutating: the owner reads the record without the lock while a holder of the lock changes it,
/// and Swift's exclusivity checks would see a mutating call as a modification of the whole record. What changes does
/// so through atomics, or in the ``LockedPart`` behind its own pointer, which only holders of the lock touch.
struct RepeatedPosts: ~Copyable {
    /// How many (mail type, recipient) pairs a thread's repeats are counted for in one second.
    static let capacity = 4

    /// One (mail type, recipient) pair and its repeats.
    struct Pair: ~Copyable {
        /// The posted type's identity as a number (its `ObjectIdentifier`).
        let mailTypeKey = Atomic<UInt>(0)
        /// The raw id of the recipient; 0, which no recipient has, while the pair is free.
        let recipient = Atomic<UInt64>(0)
        /// How many repeats the owner counted since it set the pair.
        let count = Atomic<UInt64>(0)
    }

    /// What only holders of the lock read or write.
    struct LockedPart {
        /// The second since ``RepeatedPosts/origin``, for adding the repeats.
        var second: Int64 = 0
        /// Each pair's posted type, for adding its repeats.
        var mailTypes = [TypeIdentity?](repeating: nil, count: RepeatedPosts.capacity)
        /// How much of each pair's ``Pair/count`` the shard's counters hold.
        var absorbed = [UInt64](repeating: 0, count: RepeatedPosts.capacity)
    }

    /// The id of the thread that counts here (`pthread_self()`); 0 until a thread claims it.
    let owner = Atomic<UInt64>(0)
    /// The second's bounds on the monitor's clock: a repeat's time is at or after the start and before the end.
    let secondStart = Atomic<UInt64>(0)
    let secondEnd = Atomic<UInt64>(0)
    /// The monitor's origin the second counts from: a reset makes every key stale.
    let origin = Atomic<UInt64>(0)
    /// The pairs, ``capacity`` of them.
    let pairs: UnsafeMutablePointer<Pair>
    /// Only with the lock held.
    let locked: UnsafeMutablePointer<LockedPart>

    init() {
        pairs = .allocate(capacity: Self.capacity)
        for index in 0..<Self.capacity { (pairs + index).initialize(to: Pair()) }
        locked = .allocate(capacity: 1)
        locked.initialize(to: LockedPart())
    }

    deinit {
        pairs.deinitialize(count: Self.capacity)
        pairs.deallocate()
        locked.deinitialize(count: 1)
        locked.deallocate()
    }

    /// The second since ``origin`` the repeats are counted in. Call with the lock held.
    var second: Int64 { locked.pointee.second }

    /// Counts a post if the calling thread owns the record and the post repeats one of its pairs in its second;
    /// returns `false`, counting nothing, otherwise. Takes no lock and writes no memory another thread writes.
    ///
    /// - Parameters:
    ///   - thread: The calling thread's id.
    ///   - mailTypeKey: The posted type as a number.
    ///   - recipient: The raw id of the post's one recipient.
    ///   - time: The post's time on the monitor's clock.
    ///   - origin: The monitor's origin now.
    @inline(__always)
    func countIfRepeat(
        thread: UInt64, mailTypeKey: UInt, recipient: UInt64, time: Nanoseconds, origin: UInt64
    )
        -> Bool
    {
        guard owner.load(ordering: .relaxed) == thread, time >= secondStart.load(ordering: .relaxed),
            time < secondEnd.load(ordering: .relaxed), self.origin.load(ordering: .relaxed) == origin
        else { return false }
        for index in 0..<Self.capacity {
            let pair = pairs + index
            if pair.pointee.recipient.load(ordering: .relaxed) == recipient,
                pair.pointee.mailTypeKey.load(ordering: .relaxed) == mailTypeKey
            {
                pair.pointee.count.store(pair.pointee.count.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
                return true
            }
        }
        return false
    }

    /// The repeats of pair `index` counted since the last call, now to be added to the shard's counters, with the
    /// pair's type and recipient; `nil` if there are none. Call with the lock held.
    func takeUnabsorbed(_ index: Int) -> (runs: UInt64, mailType: TypeIdentity, recipient: RecipientId)? {
        let pair = pairs + index
        let counted = pair.pointee.count.load(ordering: .relaxed)
        let runs = counted &- locked.pointee.absorbed[index]
        locked.pointee.absorbed[index] = counted
        guard runs > 0, let mailType = locked.pointee.mailTypes[index] else { return nil }
        return (runs, mailType, RecipientId(rawValue: pair.pointee.recipient.load(ordering: .relaxed)))
    }

    /// Forgets the repeats not yet absorbed: a reset cleared the counters they would go to. Call with the lock held.
    func discardUnabsorbed() {
        for index in 0..<Self.capacity {
            locked.pointee.absorbed[index] = (pairs + index).pointee.count.load(ordering: .relaxed)
        }
    }

    /// Whether the calling thread counts here, claiming the record if no thread has. Call with the lock held.
    func claim(for thread: UInt64) -> Bool {
        if owner.load(ordering: .relaxed) == 0 { owner.store(thread, ordering: .relaxed) }
        return owner.load(ordering: .relaxed) == thread
    }

    /// Whether the repeats are counted in `second`; if they are not, every pair must be absorbed before
    /// ``start(_:)``.
    func counts(in second: (origin: UInt64, start: Nanoseconds, end: Nanoseconds, second: Int64)) -> Bool {
        secondStart.load(ordering: .relaxed) == second.start && secondEnd.load(ordering: .relaxed) == second.end
            && origin.load(ordering: .relaxed) == second.origin
    }

    /// Counts the repeats in a new second, with every pair free. Call with the lock held, by the owner, after
    /// absorbing every pair.
    func start(_ second: (origin: UInt64, start: Nanoseconds, end: Nanoseconds, second: Int64)) {
        for index in 0..<Self.capacity { free(index) }
        secondStart.store(second.start, ordering: .relaxed)
        secondEnd.store(second.end, ordering: .relaxed)
        origin.store(second.origin, ordering: .relaxed)
        locked.pointee.second = second.second
    }

    /// A free pair for a new one, or `nil` when every pair is set. Pairs are not replaced within a second: a thread
    /// that posts more pairs in turn than there are would replace each before it repeats, paying for the
    /// replacement on every post. The first pairs of its second stay, and their repeats are counted without the
    /// lock; a second later the pairs it posts then take their place. Call with the lock held.
    func freePair() -> Int? {
        (0..<Self.capacity).first { (pairs + $0).pointee.recipient.load(ordering: .relaxed) == 0 }
    }

    /// Sets the free pair `index` to count the repeats of a post. Call with the lock held, by the owner.
    func set(_ index: Int, mailType: TypeIdentity, mailTypeKey: UInt, recipient: UInt64) {
        let pair = pairs + index
        pair.pointee.count.store(0, ordering: .relaxed)
        locked.pointee.absorbed[index] = 0
        locked.pointee.mailTypes[index] = mailType
        pair.pointee.mailTypeKey.store(mailTypeKey, ordering: .relaxed)
        pair.pointee.recipient.store(recipient, ordering: .relaxed)
    }

    private func free(_ index: Int) {
        let pair = pairs + index
        pair.pointee.recipient.store(0, ordering: .relaxed)
        pair.pointee.count.store(0, ordering: .relaxed)
        locked.pointee.absorbed[index] = 0
        locked.pointee.mailTypes[index] = nil
    }
}
