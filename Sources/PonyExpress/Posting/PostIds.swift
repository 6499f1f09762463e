import Synchronization

/// One thread's supply of post ids (``Posting/postId``), taken from a shared counter in blocks, so that a tapped post
/// does not write a counter that every posting thread writes. Ids are unique across threads and post offices; they
/// rise in post order within a thread, not across threads.
struct PostIds {
    /// The first id of the next block; 0 is never an id (it is a replay's `postId`).
    private static let nextBlock = Atomic<UInt64>(1)
    private static let blockSize: UInt64 = 1_024
    /// This thread's next id and the end of its block; only the owning thread reads or writes them.
    private let range: UnsafeMutablePointer<(next: UInt64, end: UInt64)>

    init() {
        range = .allocate(capacity: 1)
        range.initialize(to: (0, 0))
    }

    /// A new post id.
    @inline(__always)
    func take() -> UInt64 {
        if range.pointee.next == range.pointee.end { refill() }
        let id = range.pointee.next
        range.pointee.next = id + 1
        return id
    }

    @inline(never)
    private func refill() {
        let start = Self.nextBlock.wrappingAdd(Self.blockSize, ordering: .relaxed).oldValue
        range.pointee = (start, start + Self.blockSize)
    }
}
