import PonyExpress

/// The live registrations in a snapshot's order, as plain values: grouped by registered mail type, by id (that is,
/// registration order) within a type.
///
/// The ``RecipientRegistry`` keeps the last one it built and builds it again only after a registration changed, so
/// that a viewer refreshing an app of 100,000 steady registrations neither copies nor sorts them on every refresh.
struct RegistrationOrder {
    let registrations: [LiveRegistration]
    /// The registrations of each registered mail type.
    let ranges: [TypeIdentity: Range<Int>]
    /// The distinct queue labels of the registrations, which ``LiveRegistration/queue`` indexes.
    let queueLabels: [String]

    /// Orders the registry's entries.
    init(_ entries: [RecipientId: RecipientRegistry.Entry]) {
        var groups: [TypeIdentity: [LiveRegistration]] = [:]
        var queueLabels: [String] = []
        for entry in entries.values {
            var queue: Int?
            if let label = entry.info.queueLabel {
                // Few distinct labels, each one string object shared by its registrations: compared, not hashed.
                if let known = queueLabels.lastIndex(of: label) {
                    queue = known
                } else {
                    queue = queueLabels.count
                    queueLabels.append(label)
                }
            }
            groups[entry.info.mailType, default: []].append(
                LiveRegistration(
                    id: entry.info.id, mailType: entry.info.mailType, siteIndex: entry.siteIndex,
                    registeredAt: entry.registeredAt, isDuplicate: entry.isDuplicate,
                    isBlock: entry.info.kind == .block, queue: queue))
        }
        var registrations: [LiveRegistration] = []
        registrations.reserveCapacity(entries.count)
        var ranges: [TypeIdentity: Range<Int>] = [:]
        for (mailType, group) in groups {
            ranges[mailType] = registrations.count..<registrations.count + group.count
            registrations += group.sorted { $0.id < $1.id }
        }
        self.registrations = registrations
        self.ranges = ranges
        self.queueLabels = queueLabels
    }

    var estimatedBytes: Int {
        registrations.capacity * MemoryLayout<LiveRegistration>.stride
            + ranges.capacity * (MemoryLayout<TypeIdentity>.stride + MemoryLayout<Range<Int>>.stride)
    }
}
