/// Live registrations by id: an open-addressing table keyed by the id's raw value.
///
/// Every `register` inserts here and every `unregister` removes, under the post office's lock. A `Dictionary` keyed
/// by ``RecipientId`` spends most of that time in SipHash; ids are distinct numbers, well spread once multiplied,
/// so a Fibonacci hash and linear probing do the same job in a few instructions. Removal shifts the entries after
/// the removed one back, so the table never holds tombstones.
///
/// The table does not own its registrations: their bucket does (see ``Bucket``), and a registration is in the table
/// exactly while it is in its bucket. So registering and unregistering make no reference-counting read-modify-write
/// here, and the caller that removes a registration from both takes the bucket's reference.
struct RegistrationTable {
    /// Raw ids; 0, which no registration has, marks an empty slot.
    private var keys: [UInt64]
    private var values: [Unmanaged<Registration>?]
    private(set) var count = 0
    private var shift: UInt64

    init() {
        keys = Array(repeating: 0, count: 16)
        values = Array(repeating: nil, count: 16)
        shift = 64 - 4
    }

    @inline(__always)
    private func slot(for key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The index of `key`'s slot, or `nil` when it is not in the table.
    @inline(__always)
    private func index(of key: UInt64) -> Int? {
        guard key != 0 else { return nil }
        var index = slot(for: key)
        let mask = keys.count - 1
        while true {
            let candidate = keys[index]
            if candidate == key { return index }
            if candidate == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// The live registration with `id`, if any.
    subscript(id: RecipientId) -> Registration? {
        index(of: id.rawValue).flatMap { values[$0]?.takeUnretainedValue() }
    }

    /// Every live registration, in no particular order.
    var all: some Sequence<Registration> { values.lazy.compactMap { $0?.takeUnretainedValue() } }

    /// Adds a registration whose id is not in the table; its bucket holds it.
    mutating func insert(_ registration: Unmanaged<Registration>) {
        if (count + 1) * 2 > keys.count { grow() }
        let key = registration._withUnsafeGuaranteedRef { $0.rawId.load(ordering: .relaxed) }
        var index = slot(for: key)
        let mask = keys.count - 1
        while keys[index] != 0 { index = (index + 1) & mask }
        keys[index] = key
        values[index] = registration
        count += 1
    }

    /// Removes the registration with `id` and returns it, unowned: it is still in its bucket. Returns `nil` when there
    /// is none.
    mutating func remove(_ id: RecipientId) -> Unmanaged<Registration>? {
        guard var hole = index(of: id.rawValue) else { return nil }
        let removed = values[hole].take()
        count -= 1
        // Move back every entry of the run after the hole that may sit there: one whose home slot is not between the
        // hole (exclusive) and where it is (inclusive), going round.
        let mask = keys.count - 1
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let home = slot(for: keys[next])
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                keys[hole] = keys[next]
                values.swapAt(hole, next)
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = 0
        return removed
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        shift -= 1
        let mask = keys.count - 1
        for (key, value) in zip(oldKeys, oldValues) where key != 0 {
            var index = slot(for: key)
            while keys[index] != 0 { index = (index + 1) & mask }
            keys[index] = key
            values[index] = value
        }
    }
}
