import PonyExpress

/// A snapshot's live recipients joined to their delivery totals, grouped by registered mail type and ordered by id
/// within a type (one row per registration of the ``RegistrationOrder``), before any of them is made a
/// ``RecipientStats``.
///
/// The rules and the per-type counts read the registrations in place; a snapshot makes ``RecipientStats`` only of the
/// mail types it carries, so that a viewer's snapshot of an app with 100,000 live recipients does not build (and
/// throw away) a row for each of them.
struct JoinedRecipients {
    /// One live recipient: where its registration is, and what it received.
    struct Row {
        /// Its position in ``JoinedRecipients/registrations``.
        let position: Int
        let deliveries: UInt64
        /// Its deliveries whose handler runs were timed, of every posted type.
        let timedDeliveries: UInt64
        let handlerTime: Nanoseconds
        let maxHandlerTime: Nanoseconds
        /// Its deliveries of posted types other than its registered one, by type name.
        let deliveriesByPostedType: [PostedTypeDeliveries]
    }

    /// The live registrations by id, read for the recipients a snapshot shows.
    let entries: RecipientRegistry.Entries
    /// The live registrations' plain values, in the registry's ``RegistrationOrder``.
    let registrations: [LiveRegistration]
    /// Grouped by registered mail type, by id within a type.
    let rows: [Row]
    /// The rows of each registered mail type.
    let ranges: [TypeIdentity: Range<Int>]

    /// How many live recipients are registered for `mailType`.
    func count(of mailType: TypeIdentity) -> Int {
        ranges[mailType]?.count ?? 0
    }

    /// The statistics of the recipient in row `row`.
    func stats(_ row: Int) -> RecipientStats {
        let joined = rows[row]
        let registration = registrations[joined.position]
        // The view's table and its registrations are one copy of the registry: every id is in both.
        let entry = entries[registration.id]!
        return RecipientStats(
            info: entry.info, deliveries: joined.deliveries, handlerLatency: nil, isDuplicate: registration.isDuplicate,
            handlerTime: joined.handlerTime, maxHandlerTime: joined.maxHandlerTime,
            deliveriesByPostedType: joined.deliveriesByPostedType, replays: entry.replays)
    }

    /// The statistics of the recipients of one mail type, by id.
    func stats(of mailType: TypeIdentity) -> [RecipientStats] {
        (ranges[mailType] ?? 0..<0).map(stats)
    }

    /// The statistics of the recipients whose registration is marked a duplicate.
    var duplicates: [RecipientStats] {
        rows.indices.filter { registrations[rows[$0].position].isDuplicate }.map(stats)
    }

    /// Every recipient that receives mail of `postedType`: those registered for it, then those registered for
    /// `superclasses` (nearest first), with what each received of `postedType`.
    func receivers(of postedType: TypeIdentity, superclasses: [TypeIdentity]) -> [ReceiverStats] {
        ([postedType] + superclasses).flatMap { registered in
            (ranges[registered] ?? 0..<0).map { row in
                let recipient = stats(row)
                let received = recipient.received(postedType)
                return ReceiverStats(
                    recipient: recipient, isInherited: registered != postedType, deliveries: received.deliveries,
                    handlerTime: received.handlerTime, timedRuns: rows[row].timedDeliveries,
                    siteRow: registrations[rows[row].position].siteIndex)
            }
        }
    }

    /// The index a snapshot carries: the recipients of the mail types `isKept` accepts.
    func index(keeping isKept: (TypeIdentity) -> Bool) -> RecipientIndex {
        let keptRanges = ranges.filter { isKept($0.key) }
        var kept: [RecipientStats] = []
        kept.reserveCapacity(keptRanges.values.reduce(0) { $0 + $1.count })
        var indexRanges: [TypeIdentity: Range<Int>] = [:]
        for (mailType, range) in keptRanges {
            indexRanges[mailType] = kept.count..<kept.count + range.count
            for row in range { kept.append(stats(row)) }
        }
        return RecipientIndex(rows: kept, ranges: indexRanges)
    }
}
