import Synchronization

/// A stack of object addresses that one thread pushes and pops and any thread may read: a thread's handler runs
/// (the unregister handshake) and the routes its posts read without a lock (see ``RouteSlot``).
///
/// Only the owning thread writes it. A push is sequentially consistent, so that a thread that changed shared state
/// and then reads the stack either sees the entry or the owner sees the change; a pop is a release, so that
/// everything the owner did with the entry happens before another thread sees it gone.
struct AddressStack: ~Copyable {
    /// How many entries are in use; entries at and past it are stale.
    let depth = Atomic<Int>(0)
    /// The entries, from index 1. When full it is replaced by a larger copy; an old buffer is never freed, since
    /// another thread may still be reading it (a thread keeps at most log2 of its deepest nesting). Index 0 holds
    /// the previous buffer's address, so that every buffer stays reachable.
    private let entries: Atomic<UnsafeMutablePointer<Atomic<UInt>>>
    /// How many entries the current buffer holds; only the owning thread reads it. Atomic only so that no method
    /// needs to be `mutating`: a mutating call would be a write to the whole record, racing with readers.
    private let capacity = Atomic<Int>(16)

    init() {
        entries = Atomic(Self.allocate(16, previous: nil))
    }

    private static func allocate(
        _ capacity: Int, previous: UnsafeMutablePointer<Atomic<UInt>>?
    ) -> UnsafeMutablePointer<Atomic<UInt>> {
        let buffer = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity + 1)
        buffer.initialize(to: Atomic(UInt(bitPattern: previous)))
        for index in 1...capacity { (buffer + index).initialize(to: Atomic(0)) }
        return buffer
    }

    /// Pushes `address`; returns the depth to ``pop(to:)`` back to. Sequentially consistent: ordered before the
    /// caller's next sequentially consistent load.
    @inline(__always)
    func push(_ address: UInt) -> Int {
        let depth = self.depth.load(ordering: .relaxed)
        if depth == capacity.load(ordering: .relaxed) { grow() }
        // A release: a reader that finds this entry where an older one was also sees that the older one was popped,
        // and everything the owner did with it.
        entries.load(ordering: .relaxed)[depth + 1].store(address, ordering: .releasing)
        self.depth.store(depth + 1, ordering: .sequentiallyConsistent)
        return depth
    }

    /// Pushes two entries at once, with one sequentially consistent store: a reader sees both or neither. Returns
    /// the depth to ``pop(to:)`` back to.
    @inline(__always)
    func push(_ first: UInt, _ second: UInt) -> Int {
        let depth = self.depth.load(ordering: .relaxed)
        if depth + 2 > capacity.load(ordering: .relaxed) { grow() }
        let entries = self.entries.load(ordering: .relaxed)
        entries[depth + 1].store(first, ordering: .releasing)
        entries[depth + 2].store(second, ordering: .releasing)
        self.depth.store(depth + 2, ordering: .sequentiallyConsistent)
        return depth
    }

    /// Drops the entries above `depth`; everything the owner did with them happens before another thread sees them
    /// gone.
    @inline(__always)
    func pop(to depth: Int) {
        self.depth.store(depth, ordering: .releasing)
    }

    /// Whether the stack is not empty, as the owning thread sees it.
    var isEmpty: Bool { depth.load(ordering: .relaxed) == 0 }

    /// Calls `body` with each entry in use, as far as another thread can tell.
    func forEach(_ body: (UInt) -> Void) {
        let depth = self.depth.load(ordering: .sequentiallyConsistent)
        guard depth > 0 else { return }
        // A buffer at least as new as the depth just read, so it holds `depth` entries.
        let entries = self.entries.load(ordering: .acquiring)
        for index in 1...depth { body(entries[index].load(ordering: .acquiring)) }
    }

    /// Whether one of `addresses` is in use, as far as another thread can tell.
    func contains(any addresses: [UInt]) -> Bool {
        let depth = self.depth.load(ordering: .sequentiallyConsistent)
        guard depth > 0 else { return false }
        let entries = self.entries.load(ordering: .acquiring)
        for index in 1...depth where addresses.contains(entries[index].load(ordering: .acquiring)) {
            return true
        }
        return false
    }

    private func grow() {
        let capacity = self.capacity.load(ordering: .relaxed)
        let old = entries.load(ordering: .relaxed)
        let larger = Self.allocate(capacity * 2, previous: old)
        for index in 1...capacity { larger[index].store(old[index].load(ordering: .relaxed), ordering: .relaxed) }
        entries.store(larger, ordering: .releasing)
        self.capacity.store(capacity * 2, ordering: .relaxed)
    }
}
