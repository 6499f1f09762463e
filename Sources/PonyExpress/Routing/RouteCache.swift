/// One thread's small cache from a post office and a posted type to the office's ``RouteSlot``: where a post
/// finds its route without the lock. Only the owning thread reads or writes it, so it is plain memory.
///
/// It holds the slots it remembers; a slot whose post office is gone is empty, so a new office at the same
/// address finds it empty, takes the lock, and replaces the entry.
struct RouteCache {
    private struct Entry {
        var office: UInt = 0
        var mailType: UInt = 0
        var slot: Unmanaged<RouteSlot>?
    }

    private static let count = 16
    private let entries: UnsafeMutablePointer<Entry>

    init() {
        entries = .allocate(capacity: Self.count)
        entries.initialize(repeating: Entry(), count: Self.count)
    }

    @inline(__always)
    private static func index(office: UInt, mailType: UInt) -> Int {
        Int(truncatingIfNeeded: ((office ^ mailType) &* 0x9E37_79B9_7F4A_7C15) >> 60)
    }

    /// The remembered slot of `mailType` in `office`, if any.
    @inline(__always)
    func slot(office: ObjectIdentifier, mailType: ObjectIdentifier) -> Unmanaged<RouteSlot>? {
        let office = UInt(bitPattern: office)
        let mailType = UInt(bitPattern: mailType)
        let entry = entries + Self.index(office: office, mailType: mailType)
        guard entry.pointee.office == office, entry.pointee.mailType == mailType else { return nil }
        return entry.pointee.slot
    }

    /// Remembers `slot` as the one of `mailType` in `office`, in place of whatever shared its entry.
    func remember(_ slot: RouteSlot, office: ObjectIdentifier, mailType: ObjectIdentifier) {
        let office = UInt(bitPattern: office)
        let mailType = UInt(bitPattern: mailType)
        let entry = entries + Self.index(office: office, mailType: mailType)
        let old = entry.pointee.slot
        entry.pointee = Entry(office: office, mailType: mailType, slot: .passRetained(slot))
        old?.release()
    }
}
