import PonyExpress
import PonyExpressMonitor

/// The recent prunes of one site, recipient type and mail type: one row however many objects died there.
package struct PruneGroupRow: Equatable, Sendable {
    /// Where the pruned registrations were made.
    package var site: SourceLocation
    /// The released recipients' type, `nil` for blocks.
    package var recipientType: TypeIdentity?
    /// The mail type they were registered for.
    package var mailType: TypeIdentity
    /// What was released: the recipients or the exact senders.
    package var reason: Prune.Reason
    /// The prunes, newest first.
    package var prunes: [PruneRecord]

    /// How many recent prunes.
    package var count: Int { prunes.count }
    /// The median lifetime of the pruned registrations, nanoseconds.
    package var medianLifetime: UInt64 {
        let sorted = prunes.map(\.lifetime).sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
    /// Nanoseconds since the newest prune.
    package var newestTime: Nanoseconds { prunes.map(\.time).max() ?? 0 }
    /// Who was pruned.
    package var recipientName: String { PruneRecord.recipientName(recipientType, reason: reason) }

    /// The row's key in selections and expansions.
    package var key: String {
        [site.description, recipientType?.name ?? "-", mailType.qualifiedName, reason.word].joined(separator: "|")
    }

    /// Groups prunes by site, recipient type, mail type and reason, keeping the first prune's order.
    package static func group(_ prunes: [PruneRecord]) -> [PruneGroupRow] {
        var groups: [PruneGroupRow] = []
        var index: [String: Int] = [:]
        for prune in prunes {
            let group = PruneGroupRow(
                site: prune.site, recipientType: prune.recipientType, mailType: prune.mailType, reason: prune.reason,
                prunes: [])
            let position =
                index[group.key]
                ?? {
                    groups.append(group)
                    index[group.key] = groups.count - 1
                    return groups.count - 1
                }()
            groups[position].prunes.append(prune)
        }
        return groups
    }
}

extension PruneRecord {
    /// What the prunes table calls the recipient: its object's type, or a block and what was released.
    package var recipientName: String { Self.recipientName(recipientType, reason: reason) }

    static func recipientName(_ type: TypeIdentity?, reason: Prune.Reason) -> String {
        type?.name ?? "block (\(reason.word) released)"
    }
}
