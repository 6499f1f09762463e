/// Counts per second for the last `capacity` seconds, in a fixed ring of slots tagged with their second.
///
/// Adding to a second whose slot still holds an older second clears the slot first, so the ring never needs to be
/// advanced and costs O(1) per event whatever the gap between events. Each slot holds `lanes` counters. The
/// capacity is rounded up to a power of two, so that finding a second's slot is a mask, not a division.
struct SecondRing {
    let capacity: Int
    let lanes: Int
    private let mask: Int64
    /// Per slot: its second's tag (as a bit pattern, -1 when empty), then one counter per lane. One array, so that
    /// an update checks one buffer for uniqueness.
    private var slots: [UInt64]
    private var stride: Int { lanes + 1 }

    init(capacity: Int, lanes: Int) {
        self.capacity = 1 << (Int.bitWidth - (Swift.max(1, capacity) - 1).leadingZeroBitCount)
        mask = Int64(self.capacity - 1)
        self.lanes = lanes
        slots = Array(repeating: 0, count: self.capacity * (lanes + 1))
        clear()
    }

    private static let emptyTag = UInt64(bitPattern: -1)

    @inline(__always)
    private func tag(at base: Int) -> Int64 { Int64(bitPattern: slots[base]) }

    /// Adds `amount` to `lane` of `second`. A second older than the one now held by its slot is dropped.
    @inline(__always)
    mutating func add(_ amount: UInt64, lane: Int, second: Int64) {
        update(second: second) { $0[lane] &+= amount }
    }

    /// Adds `amount` to `lane` and `other` to `otherLane` of `second`, in one access to the ring.
    @inline(__always)
    mutating func add(_ amount: UInt64, lane: Int, _ other: UInt64, lane otherLane: Int, second: Int64) {
        update(second: second) { counters in
            counters[lane] &+= amount
            counters[otherLane] &+= other
        }
    }

    /// Raises `lane` of `second` to `value` if it is lower: a per-second maximum instead of a sum.
    @inline(__always)
    mutating func raise(_ value: UInt64, lane: Int, second: Int64) {
        update(second: second) { $0[lane] = Swift.max($0[lane], value) }
    }

    /// Changes the counters of `second` (one per lane, from lane 0), clearing its slot first if it holds an older
    /// second; does nothing if it holds a newer one.
    @inline(__always)
    private mutating func update(second: Int64, _ change: (UnsafeMutablePointer<UInt64>) -> Void) {
        let base = Int(second & mask) * stride
        slots.withUnsafeMutableBufferPointer { slots in
            let tag = Int64(bitPattern: slots[base])
            if tag != second {
                if tag > second { return }
                slots[base] = UInt64(bitPattern: second)
                for index in base + 1...base + lanes { slots[index] = 0 }
            }
            change(slots.baseAddress! + base + 1)
        }
    }

    /// The count of `lane` in `second`, 0 if the ring no longer (or never) held it.
    func value(lane: Int, second: Int64) -> UInt64 {
        guard second >= 0 else { return 0 }
        let base = Int(second & mask) * stride
        return tag(at: base) == second ? slots[base + 1 + lane] : 0
    }

    /// Adds this ring's counts of `lane` for the seconds `start..<start + into.count` to `into`.
    func accumulate(lane: Int, from start: Int64, into totals: inout [UInt64]) {
        for offset in totals.indices {
            totals[offset] &+= value(lane: lane, second: start + Int64(offset))
        }
    }

    /// Raises each of `maxima`, from `start` on, to the lane's value for that second: a per-second maximum over
    /// rings.
    func raise(lane: Int, from start: Int64, into maxima: inout [UInt64]) {
        for offset in maxima.indices {
            maxima[offset] = Swift.max(maxima[offset], value(lane: lane, second: start + Int64(offset)))
        }
    }

    /// Adds every second another ring of the same shape holds.
    mutating func absorb(_ other: SecondRing) {
        for slot in 0..<other.capacity {
            let base = slot * other.stride
            let second = other.tag(at: base)
            guard second >= 0 else { continue }
            for lane in 0..<Swift.min(lanes, other.lanes) {
                add(other.slots[base + 1 + lane], lane: lane, second: second)
            }
        }
    }

    /// Forgets every count.
    mutating func clear() {
        for index in slots.indices { slots[index] = index % stride == 0 ? Self.emptyTag : 0 }
    }

    /// The bytes its storage takes.
    var estimatedBytes: Int {
        MemoryLayout<Self>.stride + slots.capacity * MemoryLayout<UInt64>.stride
    }
}
