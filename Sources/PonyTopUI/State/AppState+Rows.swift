import PonyExpress

extension AppState {
    /// The mail types the table shows: filtered by name, then sorted (or in their frozen order), and laid out as a
    /// class tree when the tree is shown.
    package func mailTypeLines(in dashboard: Dashboard) -> [MailTypeLine] {
        let needle = filter.lowercased()
        let rows =
            needle.isEmpty ? dashboard.mailTypes : dashboard.mailTypes.filter { $0.name.lowercased().contains(needle) }
        let ordered = order(rows, by: MailTypesPane.self)
        guard isTreeShown else { return ordered.map { MailTypeLine(row: $0, tree: []) } }
        return Self.tree(ordered)
    }

    /// The mail type rows of the table, in the order shown.
    package func visibleMailTypes(in dashboard: Dashboard) -> [MailTypeRow] {
        mailTypeLines(in: dashboard).map(\.row)
    }

    /// The mail type whose recipients, latency and prunes are shown: the drilled-into one, else the selected row.
    package func focusedMailType(in dashboard: Dashboard) -> TypeIdentity? {
        if let drilledMailType { return drilledMailType }
        let lines = mailTypeLines(in: dashboard)
        guard let position = cursor(of: .mailTypes).position(in: lines.map(\.key)) else { return nil }
        return lines[position].row.mailType
    }

    /// The recipients table's rows: each site, followed by its registrations when it is expanded.
    package func recipientLines(in dashboard: Dashboard) -> [RecipientLine] {
        guard let mailType = focusedMailType(in: dashboard), dashboard.sitesMailType == mailType else { return [] }
        let sites = order(dashboard.sites, by: RecipientsPane.self)
        return sites.flatMap { site -> [RecipientLine] in
            let isExpanded = expanded.contains(site.key)
            var lines: [RecipientLine] = [.site(site, isExpanded: isExpanded)]
            if isExpanded {
                lines += site.registrations.enumerated().map { index, recipient in
                    .registration(recipient, site: site, isLast: index == site.registrations.count - 1)
                }
            }
            return lines
        }
    }

    /// The prunes table's rows: each group, followed by its prunes when it is expanded. In the drill-down, only the
    /// drilled-into mail type's.
    package func pruneLines(in dashboard: Dashboard) -> [PruneLine] {
        let prunes = dashboard.prunes.filter { drilledMailType == nil || $0.mailType == drilledMailType }
        let groups = order(PruneGroupRow.group(prunes), by: PrunesPane.self)
        return groups.flatMap { group -> [PruneLine] in
            let isExpanded = expanded.contains(group.key)
            var lines: [PruneLine] = [.group(group, isExpanded: isExpanded)]
            if isExpanded {
                lines += group.prunes.enumerated().map { .prune($1, group: group, index: $0) }
            }
            return lines
        }
    }

    /// The findings shown, ranked by ``FindingRow/ranked(_:)``; in the drill-down, only the drilled-into mail type's.
    package func findingRows(in dashboard: Dashboard) -> [FindingRow] {
        FindingRow.ranked(dashboard.findings.filter { drilledMailType == nil || $0.mailType == drilledMailType })
    }

    /// The queues table's rows, sorted.
    package func queueRows(in dashboard: Dashboard) -> [QueueRow] {
        order(dashboard.queues, by: QueuesPane.self)
    }

    /// The keys of a pane's rows, in the order shown.
    package func keys(of pane: Pane, in dashboard: Dashboard) -> [String] {
        switch pane {
        case .mailTypes: mailTypeLines(in: dashboard).map(\.key)
        case .recipients: recipientLines(in: dashboard).map(\.key)
        case .prunes: pruneLines(in: dashboard).map(\.key)
        case .findings: findingRows(in: dashboard).map(\.key)
        case .queues: queueRows(in: dashboard).map(\.key)
        case .latency: []
        }
    }

    /// The selected position among a pane's rows, `nil` when it has none.
    package func selectedIndex(of pane: Pane, in dashboard: Dashboard) -> Int? {
        cursor(of: pane).position(in: keys(of: pane, in: dashboard))
    }

    /// A pane's cursor: the first row until the user moves.
    package func cursor(of pane: Pane) -> Cursor {
        cursors[pane] ?? Cursor(key: nil, index: 0)
    }

    /// `records` sorted by the table's sort order, or in its frozen order with new records last (in sort order).
    func order<Table: TablePane>(_ records: [Table.Record], by table: Table.Type) -> [Table.Record] {
        let sorted =
            sortOrder(of: Table.pane).map {
                $0.sorted(records, key: Table.key(of:), value: { Table.sortKey($1, of: $0) })
            } ?? records
        guard let frozen = frozenOrders?[Table.pane] else { return sorted }
        var position: [String: Int] = [:]
        for (index, key) in frozen.enumerated() { position[key] = index }
        return sorted.enumerated().sorted { lhs, rhs in
            (position[Table.key(of: lhs.element)] ?? frozen.count + lhs.offset)
                < (position[Table.key(of: rhs.element)] ?? frozen.count + rhs.offset)
        }.map(\.element)
    }

    /// Rows as a forest: each under its nearest superclass among the rows, siblings in the given order.
    static func tree(_ rows: [MailTypeRow]) -> [MailTypeLine] {
        let present = Set(rows.map(\.mailType))
        var children: [TypeIdentity: [MailTypeRow]] = [:]
        var roots: [MailTypeRow] = []
        for row in rows {
            if let parent = row.superclasses.first(where: present.contains) {
                children[parent, default: []].append(row)
            } else {
                roots.append(row)
            }
        }
        var lines: [MailTypeLine] = []
        func visit(_ row: MailTypeRow, ancestors: [TreeMark], isLast: Bool, isRoot: Bool) {
            lines.append(MailTypeLine(row: row, tree: isRoot ? [] : ancestors + [isLast ? .lastBranch : .branch]))
            let below = children[row.mailType] ?? []
            let inherited: [TreeMark] = isRoot ? [] : ancestors + [isLast ? .blank : .through]
            for (index, child) in below.enumerated() {
                visit(child, ancestors: inherited, isLast: index == below.count - 1, isRoot: false)
            }
        }
        for root in roots { visit(root, ancestors: [], isLast: true, isRoot: true) }
        return lines
    }
}
