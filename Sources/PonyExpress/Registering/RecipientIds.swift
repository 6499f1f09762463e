/// The ids one post office gives its registrations, taken from the process in blocks.
///
/// Ids are unique across post offices, so they come from one process-wide counter; but a registration already
/// holds its post office's lock when it takes one, so it takes them from a block the office reserved instead of
/// making an atomic read-modify-write on that counter every time. Within a post office ids still grow in
/// registration order: every block lies above the blocks reserved before it.
struct RecipientIds {
    /// How many ids a post office reserves at once.
    static let blockSize: UInt64 = 1_024

    private var next: UInt64 = 0
    private var end: UInt64 = 0

    /// The next id; called under the post office's lock.
    @inline(__always)
    mutating func take() -> RecipientId {
        if next == end { reserveBlock() }
        defer { next &+= 1 }
        return RecipientId(rawValue: next)
    }

    @inline(never)
    private mutating func reserveBlock() {
        next = RecipientId.reserve(Self.blockSize)
        end = next &+ Self.blockSize
    }
}
