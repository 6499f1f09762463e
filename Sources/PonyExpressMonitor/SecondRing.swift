/// Counts per second for the last `capacity` seconds, in a fixed ring of slots tagged with their second.
///
/// Adding to a second whose slot still holds an older second clears the slot first, so the ring never needs to be
/// advanced and costs O(1) per event whatever the gap between events. Each slot holds `lanes` counters. The
/// capacity is rounded up to a power of two, so that finding a second's slot is a mask, not a division.
struct SecondRing {
    let capacity: Int
    let lanes: Int
    private let mask: Int64
    private var tags: [Int64]
    private var values: [UInt64]

    init(capacity: Int, lanes: Int) {
        self.capacity = 1 << (Int.bitWidth - (Swift.max(1, capacity) - 1).leadingZeroBitCount)
        mask = Int64(self.capacity - 1)
        self.lanes = lanes
        tags = Array(repeating: -1, count: self.capacity)
        values = Array(repeating: 0, count: self.capacity * lanes)
    }

    /// Adds `amount` to `lane` of `second`. A second older than the one now held by its slot is dropped.
    @inline(__always)
    mutating func add(_ amount: UInt64, lane: Int, second: Int64) {
        let slot = Int(second & mask)
        if tags[slot] != second {
            if tags[slot] > second { return }
            tags[slot] = second
            for index in slot * lanes..<(slot + 1) * lanes { values[index] = 0 }
        }
        values[slot * lanes + lane] &+= amount
    }

    /// The count of `lane` in `second`, 0 if the ring no longer (or never) held it.
    func value(lane: Int, second: Int64) -> UInt64 {
        guard second >= 0 else { return 0 }
        let slot = Int(second & mask)
        return tags[slot] == second ? values[slot * lanes + lane] : 0
    }

    /// Adds this ring's counts of `lane` for the seconds `start..<start + into.count` to `into`.
    func accumulate(lane: Int, from start: Int64, into totals: inout [UInt64]) {
        for offset in totals.indices {
            totals[offset] &+= value(lane: lane, second: start + Int64(offset))
        }
    }

    /// Adds every second another ring of the same shape holds.
    mutating func absorb(_ other: SecondRing) {
        for slot in other.tags.indices where other.tags[slot] >= 0 {
            for lane in 0..<Swift.min(lanes, other.lanes) {
                add(other.values[slot * other.lanes + lane], lane: lane, second: other.tags[slot])
            }
        }
    }

    /// Forgets every count.
    mutating func clear() {
        for index in tags.indices { tags[index] = -1 }
        for index in values.indices { values[index] = 0 }
    }

    /// The bytes its storage takes.
    var estimatedBytes: Int {
        MemoryLayout<Self>.stride + tags.capacity * MemoryLayout<Int64>.stride
            + values.capacity * MemoryLayout<UInt64>.stride
    }
}
