extension AppState {
    /// Moves the focused pane's selection by `delta` rows, clamped to its rows.
    mutating func move(by delta: Int, dashboard: Dashboard) {
        let keys = keys(of: focus, in: dashboard)
        guard let current = cursor(of: focus).position(in: keys) else { return }
        let target = min(keys.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
        cursors[focus] = Cursor(key: keys[target], index: target)
    }

    /// Enter: what the focused pane's type says (``RowsPane/enter(on:)``): drills into a mail type, expands or
    /// collapses a site or prune group, or shows a row's details.
    mutating func open(dashboard: Dashboard) {
        guard let rows = focus.rows else { return }
        open(rows, dashboard: dashboard)
    }

    private mutating func open<Rows: RowsPane>(_ rows: Rows.Type, dashboard: Dashboard) {
        let row = selected(Rows.self, in: dashboard)
        switch Rows.enter(on: row?.line) {
        case .drillIn(let mailType):
            guard screen == .overview else { return }
            cursors[Rows.pane] = Cursor(key: mailType.qualifiedName, index: row?.index ?? 0)
            screen = .mailType(mailType)
            focus = .recipients
            cursors[.recipients] = nil
            cursors[.prunes] = nil
            cursors[.findings] = nil
        case .toggle(let key): toggle(key)
        case .details: showDetails(dashboard: dashboard)
        case nil: break
        }
    }

    /// Shows every field of the focused pane's selected row.
    mutating func showDetails(dashboard: Dashboard) {
        guard selectedIndex(of: focus, in: dashboard) != nil else {
            notice = focus == .latency ? "the latency pane has no rows; d shows a row's details" : "no row selected"
            return
        }
        details = focus
        detailsScroll = 0
    }

    /// s: the selected finding's site, in the drill-down of its mail type with the site's row selected (the first
    /// of its rows, when its registrations differ in queue or sender).
    mutating func goToSite(dashboard: Dashboard) {
        guard focus == .findings, let finding = selected(FindingsPane.self, in: dashboard)?.line.finding else {
            notice = "s goes to a finding's site: select a finding first (Tab to the findings pane)"
            return
        }
        guard let site = finding.site else {
            notice = "this finding names no single site (a queue's): d shows the sites in its evidence"
            return
        }
        cursors[.mailTypes] = Cursor(key: finding.mailType.qualifiedName, index: cursor(of: .mailTypes).index)
        screen = .mailType(finding.mailType)
        focus = .recipients
        cursors[.recipients] = Cursor(key: nil, index: 0, keyPrefix: site.description + "|")
        cursors[.prunes] = nil
        cursors[.findings] = nil
    }

    /// Esc: collapses the selected row's site or group, else leaves the screen, else clears the filter.
    mutating func back(dashboard: Dashboard) {
        if let rows = focus.rows, let group = expandedGroup(rows, in: dashboard) {
            expanded.remove(group.key)
            cursors[focus] = Cursor(key: group.key, index: group.index)
            return
        }
        switch screen {
        case .mailType, .queues:
            screen = .overview
            focus = .mailTypes
        case .overview:
            if !filter.isEmpty { filter = "" }
        }
    }

    /// The expanded record the selected row of a pane shows or belongs to, and the row's position.
    private func expandedGroup<Rows: RowsPane>(_ rows: Rows.Type, in dashboard: Dashboard) -> (key: String, index: Int)?
    {
        guard let row = selected(Rows.self, in: dashboard), let key = Rows.group(of: row.line), expanded.contains(key)
        else { return nil }
        return (key, row.index)
    }

    private mutating func toggle(_ key: String) {
        if expanded.contains(key) { expanded.remove(key) } else { expanded.insert(key) }
    }
}
