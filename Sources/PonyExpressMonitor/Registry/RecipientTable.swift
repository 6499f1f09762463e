import PonyExpress

/// Delivery counters by recipient id: an open-addressing hash table with linear probing and a multiplicative hash,
/// cheaper on the hot path than `Dictionary`'s seeded SipHash. Removal shifts the following entries back, so there
/// are no tombstones and lookups stay short however many recipients come and go.
struct RecipientTable {
    private var keys: [UInt64]
    private var values: [RecipientTraffic]
    private var mask: Int
    private var shift: UInt64
    private(set) var count = 0

    /// The empty key: ids start at 1.
    private static let empty: UInt64 = 0

    init() {
        keys = Array(repeating: Self.empty, count: 16)
        values = Array(repeating: RecipientTraffic(), count: 16)
        mask = 15
        shift = 60
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// What ``record(_:slot:duration:)`` did.
    enum Outcome {
        /// Counted in the recipient's entry, whose site row is `site`.
        case recorded(site: Int32)
        /// The recipient's entry, whose site row is `site`, counts another posted type: count this one elsewhere.
        case otherType(site: Int32)
        /// The table has no entry for the recipient.
        case absent
    }

    /// Records a delivery of the posted type in `slot` for `id`, if its entry counts that type; `duration` is `nil`
    /// for an untimed run.
    @inline(__always)
    mutating func record(_ id: RecipientId, slot: Int, duration: Nanoseconds?) -> Outcome {
        update(id, slot: slot) { $0.record(duration: duration) }
    }

    /// Records `runs` untimed deliveries of the posted type in `slot` for `id`, if its entry counts that type.
    mutating func recordUntimed(_ runs: UInt64, for id: RecipientId, slot: Int) -> Outcome {
        update(id, slot: slot) { $0.recordUntimed(runs) }
    }

    /// Changes `id`'s entry if it counts the posted type in `slot`.
    @inline(__always)
    private mutating func update(_ id: RecipientId, slot: Int, _ change: (inout RecipientTraffic) -> Void) -> Outcome {
        guard let index = position(of: id) else { return .absent }
        guard values[index].slot == Int32(truncatingIfNeeded: slot) else { return .otherType(site: values[index].site) }
        change(&values[index])
        return .recorded(site: values[index].site)
    }

    /// Where `id`'s entry is, or `nil` if it has none.
    @inline(__always)
    private func position(of id: RecipientId) -> Int? {
        let key = id.rawValue
        var index = home(key)
        while true {
            let found = keys[index]
            if found == key { return index }
            if found == Self.empty { return nil }
            index = (index + 1) & mask
        }
    }

    /// Counts one untimed run for each of `count` recipients (`id(index)` gives each) whose entry counts the posted
    /// type in `slot`, reaching the table's storage once for all of them: a post to 100 recipients makes one
    /// access, not 100.
    ///
    /// - Returns: The indexes of the recipients it did not count (no entry yet, or an entry of another posted
    ///   type), for ``record(_:slot:duration:)`` one by one; empty, without an allocation, when it counted them all.
    @inline(__always)
    mutating func recordUntimed(count: Int, slot: Int, id: (Int) -> RecipientId) -> [Int] {
        var missed: [Int] = []
        let mask = mask
        let shift = shift
        let slot = Int32(truncatingIfNeeded: slot)
        keys.withUnsafeBufferPointer { keys in
            values.withUnsafeMutableBufferPointer { values in
                for index in 0..<count {
                    let key = id(index).rawValue
                    var position = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
                    while true {
                        let found = keys[position]
                        if found == key {
                            if values[position].slot == slot {
                                values[position].deliveries &+= 1
                            } else {
                                missed.append(index)
                            }
                            break
                        }
                        if found == Self.empty {
                            missed.append(index)
                            break
                        }
                        position = (position + 1) & mask
                    }
                }
            }
        }
        return missed
    }

    /// Adds an entry for `id` (which must not be present yet).
    mutating func insert(_ id: RecipientId, _ traffic: RecipientTraffic) {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var index = home(id.rawValue)
        while keys[index] != Self.empty { index = (index + 1) & mask }
        keys[index] = id.rawValue
        values[index] = traffic
        count += 1
    }

    /// Removes the entry for `id`, if any.
    mutating func remove(_ id: RecipientId) {
        guard let index = position(of: id) else { return }
        // Backward-shift deletion: move later entries of the probe run into the hole when their home allows it.
        var hole = index
        var next = (hole + 1) & mask
        while keys[next] != Self.empty {
            let wanted = home(keys[next])
            let distanceToNext = (next - wanted) & mask
            let distanceToHole = (hole - wanted) & mask
            if distanceToHole <= distanceToNext {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = Self.empty
        values[hole] = RecipientTraffic()
        count -= 1
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        let capacity = keys.count * 2
        keys = Array(repeating: Self.empty, count: capacity)
        values = Array(repeating: RecipientTraffic(), count: capacity)
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != Self.empty {
            insert(RecipientId(rawValue: key), value)
        }
    }

    /// One recipient's raw id and counters.
    struct Entry {
        var id: UInt64 = 0
        var traffic = RecipientTraffic()
    }

    /// Writes every entry in use at the front of `entries`, appending past its end if it is too short; returns how
    /// many it wrote. One pass over the table that writes only what it copies, into pages the caller touched
    /// beforehand, so that a snapshot holds its shard's lock for as little as it can (and the table's own arrays
    /// stay unshared, which the next delivery would otherwise copy whole).
    func copyEntries(into entries: inout [Entry]) -> Int {
        var written = 0
        keys.withUnsafeBufferPointer { keys in
            values.withUnsafeBufferPointer { values in
                entries.withUnsafeMutableBufferPointer { buffer in
                    for index in keys.indices where keys[index] != Self.empty {
                        guard written < buffer.count else { break }
                        buffer[written] = Entry(id: keys[index], traffic: values[index])
                        written += 1
                    }
                }
            }
        }
        guard written < count else { return written }
        // More entries than the caller expected: the rest, the slow way.
        var skipped = written
        for index in keys.indices where keys[index] != Self.empty {
            if skipped > 0 {
                skipped -= 1
                continue
            }
            entries.append(Entry(id: keys[index], traffic: values[index]))
            written += 1
        }
        return written
    }

    var estimatedBytes: Int {
        keys.capacity * MemoryLayout<UInt64>.stride + values.capacity * MemoryLayout<RecipientTraffic>.stride
    }
}
