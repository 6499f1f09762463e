extension AppState {
    /// Moves the focused pane's selection by `delta` rows, clamped to its rows.
    mutating func move(by delta: Int, dashboard: Dashboard) {
        let keys = keys(of: focus, in: dashboard)
        guard let current = cursor(of: focus).position(in: keys) else { return }
        let target = min(keys.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
        cursors[focus] = Cursor(key: keys[target], index: target)
    }

    /// Enter: drills into a mail type, expands or collapses a site or prune group, or shows a row's details.
    mutating func open(dashboard: Dashboard) {
        switch focus {
        case .mailTypes:
            guard screen == .overview, let mailType = focusedMailType(in: dashboard) else { return }
            cursors[.mailTypes] = Cursor(
                key: mailType.qualifiedName, index: selectedIndex(of: .mailTypes, in: dashboard) ?? 0)
            screen = .mailType(mailType)
            focus = .recipients
            cursors[.recipients] = nil
            cursors[.prunes] = nil
            cursors[.findings] = nil
        case .recipients:
            let lines = recipientLines(in: dashboard)
            guard let index = selectedIndex(of: .recipients, in: dashboard) else { return }
            if case .site(let site, _) = lines[index] { toggle(site.key) } else { showDetails(dashboard: dashboard) }
        case .prunes:
            let lines = pruneLines(in: dashboard)
            guard let index = selectedIndex(of: .prunes, in: dashboard) else { return }
            if case .group(let group, _) = lines[index] { toggle(group.key) } else { showDetails(dashboard: dashboard) }
        case .findings, .queues: showDetails(dashboard: dashboard)
        case .latency: break
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

    /// Esc: collapses the selected row's site or group, else leaves the screen, else clears the filter.
    mutating func back(dashboard: Dashboard) {
        if focus == .recipients || focus == .prunes, let index = selectedIndex(of: focus, in: dashboard) {
            let key: String? =
                focus == .recipients
                ? { () -> String? in
                    let line = recipientLines(in: dashboard)[index]
                    return expanded.contains(line.site.key) ? line.site.key : nil
                }()
                : { () -> String? in
                    let line = pruneLines(in: dashboard)[index]
                    return expanded.contains(line.group.key) ? line.group.key : nil
                }()
            if let key {
                expanded.remove(key)
                cursors[focus] = Cursor(key: key, index: index)
                return
            }
        }
        switch screen {
        case .mailType, .queues:
            screen = .overview
            focus = .mailTypes
        case .overview:
            if !filter.isEmpty { filter = "" }
        }
    }

    private mutating func toggle(_ key: String) {
        if expanded.contains(key) { expanded.remove(key) } else { expanded.insert(key) }
    }
}
