import PonyExpress

/// What the registry notes so that a leak raised from a snapshot's facts can be held from later snapshots' facts:
/// which registration seconds of the sites that grew changed lately.
///
/// A raised leak holds while enough of the registrations its window saw stay alive, and its window can be hours
/// old, older than any history a snapshot carries. So the registry watches each site the leak rule could raise a
/// leak at (``GrowingRegistrationsRule/LeakFacts``), and notes, for each second in which such a site registered, the
/// last second one of those registrations was added, ended, or became or stopped being a duplicate. A snapshot's
/// facts carry the live count of every registration second noted within the kept history; a judge that reads
/// snapshots less than the kept history apart sees every change, and keeps exact counts for the leaks it holds,
/// however old. Costs one dictionary write per registration change at a watched site; at most ``capacity``
/// seconds are noted, and past that the facts say changes were lost (a judge holding a leak then says it could
/// not re-check it), never a count that is wrong.
struct LeakWatch {
    /// A registration second of one site row.
    struct Pair: Hashable {
        var row: Int
        var second: Int64
    }

    /// The most registration seconds noted at once: about 600 KB.
    static let capacity = 16_384

    /// The watched site rows.
    private(set) var rows: Set<Int> = []
    /// The last second (since the monitor's origin) in which each registration second changed.
    private(set) var changed: [Pair: Int64] = [:]
    /// The last second in which a change could not be noted for want of room.
    private(set) var lostAt: Int64?

    /// Notes that a registration of `row`, registered at `registeredAt` (the second counted from `origin`), changed
    /// in the second `now`, if the row is watched: a set lookup, and nothing more, when it is not.
    @inline(__always)
    mutating func note(row: Int, registeredAt: Nanoseconds, origin: Nanoseconds, now: Int64) {
        guard !rows.isEmpty, rows.contains(row) else { return }
        note(Pair(row: row, second: Self.second(of: registeredAt, since: origin)), now: now)
    }

    private mutating func note(_ pair: Pair, now: Int64) {
        if changed[pair] == nil, changed.count >= Self.capacity {
            lostAt = now
            return
        }
        changed[pair] = now
    }

    /// Starts watching `row`, noting `seconds` as changed now: the counts a snapshot read of them before the row was
    /// watched may have changed since, unnoted, and the next snapshot's facts must carry them again.
    mutating func watch(_ row: Int, seconds: [Int64], now: Int64) {
        rows.insert(row)
        for second in seconds { note(Pair(row: row, second: second), now: now) }
    }

    /// Stops watching `row`: its site's row was given to another site.
    mutating func forget(row: Int) {
        guard rows.remove(row) != nil else { return }
        changed = changed.filter { $0.key.row != row }
    }

    /// Drops the changes made before the second `oldest`, which no judge reading the kept history needs.
    mutating func expire(before oldest: Int64) {
        if let lostAt, lostAt < oldest { self.lostAt = nil }
        guard changed.values.contains(where: { $0 < oldest }) else { return }
        changed = changed.filter { $0.value >= oldest }
    }

    /// The second since `origin` in which `time` falls; negative before it.
    static func second(of time: Nanoseconds, since origin: Nanoseconds) -> Int64 {
        time >= origin
            ? Int64(clamping: (time - origin) / 1_000_000_000)
            : -Int64(clamping: (origin - time + 999_999_999) / 1_000_000_000)
    }

    var estimatedBytes: Int {
        rows.capacity * MemoryLayout<Int>.stride + changed.capacity * (MemoryLayout<Pair>.stride + 8)
    }
}
