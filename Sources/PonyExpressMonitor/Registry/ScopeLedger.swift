import PonyExpress

/// What the monitor learned from the scopes that ended (``TapEvent/scopeEnded(_:)``): per scope name and
/// registration site, how many scopes left a registration alive and how many ended clean, and which registrations
/// outlived their scope and are still registered.
///
/// Bounded: at most ``capacity`` scope-and-site pairs (the monitor's site capacity), each holding only the outlived
/// registrations still alive, which the registry holds anyway; the scopes of new pairs beyond it are counted in
/// ``dropped``.
struct ScopeLedger {
    /// A scope name and a registration site.
    struct Key: Hashable {
        let scope: String
        let mailType: TypeIdentity
        let site: SourceLocation

        /// The registration site, without the scope.
        var registrationSite: RegistrationSite { RegistrationSite(mailType: mailType, site: site) }
    }

    /// A registration site as the ledger knows it: a mail type and a source line, without the kind of recipient.
    struct RegistrationSite: Hashable {
        let mailType: TypeIdentity
        let site: SourceLocation
    }

    /// One scope name's record at one site.
    struct Record {
        /// Scopes of this name whose registrations at the site outlived them.
        var leakedScopes: UInt64 = 0
        /// Scopes of this name whose registrations at the site were all gone by their check.
        var cleanScopes: UInt64 = 0
        /// The registrations that outlived their scope and are still registered (their ages come from the registry,
        /// on the monitor's clock), with when the monitor heard they outlived it: when the finding began.
        var outlived: [RecipientId: Nanoseconds] = [:]
        /// The grace period of the latest scope of this name that leaked.
        var grace: Nanoseconds = 0
    }

    let capacity: Int
    private(set) var records: [Key: Record] = [:]
    /// Which record holds an outlived registration.
    private var owners: [RecipientId: Key] = [:]
    /// Scope-and-site pairs left out beyond the capacity.
    private(set) var dropped: UInt64 = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Takes in a scope's check, heard at `time` on the monitor's clock.
    mutating func record(_ end: ScopeEnd, at time: Nanoseconds) {
        var outlivedBySite: [Key: [RecipientInfo]] = [:]
        for info in end.outlived {
            outlivedBySite[Key(scope: end.scope.name, mailType: info.mailType, site: info.site), default: []]
                .append(info)
        }
        for site in end.sites {
            let key = Key(scope: end.scope.name, mailType: site.mailType, site: site.site)
            guard records[key] != nil || records.count < capacity else {
                dropped += 1
                continue
            }
            var record = records[key] ?? Record()
            let outlived = outlivedBySite[key] ?? []
            if outlived.isEmpty {
                record.cleanScopes += 1
            } else {
                record.leakedScopes += 1
                record.grace = end.grace
                for info in outlived {
                    record.outlived[info.id] = record.outlived[info.id] ?? time
                    owners[info.id] = key
                }
            }
            records[key] = record
        }
    }

    /// Forgets a registration that was unregistered or pruned.
    mutating func remove(_ id: RecipientId) {
        guard !owners.isEmpty, let key = owners.removeValue(forKey: id) else { return }
        records[key]?.outlived[id] = nil
    }

    /// Forgets every count, keeping nothing.
    mutating func removeAll() {
        records.removeAll()
        owners.removeAll()
        dropped = 0
    }

    var estimatedBytes: Int {
        records.capacity * (MemoryLayout<Key>.stride + MemoryLayout<Record>.stride + 64)
            + owners.capacity * (MemoryLayout<RecipientId>.stride * 3 + MemoryLayout<Key>.stride)
    }
}
