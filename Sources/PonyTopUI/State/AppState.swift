import PonyExpress

/// Everything the user has chosen: screen, selection, focus, sort, filter, pauses and refresh interval.
///
/// Keys change it through ``handle(_:dashboard:)``, a pure transition that returns an ``Effect`` for the session to
/// carry out. Drawing reads it and never changes it.
package struct AppState: Equatable, Sendable {
    /// Which screen is shown.
    package enum Screen: Equatable, Sendable {
        /// Every pane, the mail types table in charge.
        case overview
        /// One mail type: its recipients, latency, prunes and findings fill the screen.
        case detail(TypeIdentity)
    }

    /// The refresh intervals `+` and `-` step through, in seconds.
    package static let refreshSteps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10]
    /// Rows moved by PgUp and PgDn.
    package static let pageSize = 10

    /// The screen.
    package var screen: Screen = .overview
    /// Whether the help screen is up.
    package var isHelpShown = false
    /// The first line of help shown.
    package var helpScroll = 0
    /// The pane the arrows act on.
    package var focus: Pane = .mailTypes
    /// The selected mail type; the first visible row when `nil` or filtered away.
    package var selected: TypeIdentity?
    /// The mail types table's sort column and direction.
    package var sortColumn: SortColumn = .postsPerSecond
    /// Whether the sort is from the largest value down.
    package var sortDescending = true
    /// Mail types whose names do not contain this (ignoring case) are hidden.
    package var filter = ""
    /// Whether keys are typed into the filter.
    package var isEditingFilter = false
    /// Whether the display is frozen (the scenario keeps running).
    package var isDisplayPaused = false
    /// Seconds between refreshes.
    package var refreshInterval: Double
    /// The first row shown of each scrolling pane.
    package var scroll: [Pane: Int] = [:]

    /// Creates the start-up state.
    ///
    /// - Parameter refreshInterval: Seconds between refreshes.
    package init(refreshInterval: Double = 0.5) {
        self.refreshInterval = refreshInterval
    }

    /// The panes Tab cycles through on the current screen.
    package var panes: [Pane] {
        switch screen {
        case .overview: Pane.allCases
        case .detail: [.recipients, .latency, .prunes, .findings]
        }
    }

    /// The mail types the table shows: filtered by name, then sorted (ties by name).
    package func visibleMailTypes(in dashboard: Dashboard) -> [MailTypeRow] {
        let needle = filter.lowercased()
        let rows =
            needle.isEmpty ? dashboard.mailTypes : dashboard.mailTypes.filter { $0.name.lowercased().contains(needle) }
        return rows.sorted { lhs, rhs in
            if sortColumn.ascending(lhs, rhs) { return !sortDescending }
            if sortColumn.ascending(rhs, lhs) { return sortDescending }
            return lhs.name < rhs.name
        }
    }

    /// The mail type whose details are shown: the drilled-into one, else the selected visible row.
    package func focusedMailType(in rows: [MailTypeRow]) -> TypeIdentity? {
        if case .detail(let mailType) = screen { return mailType }
        if let selected, rows.contains(where: { $0.mailType == selected }) { return selected }
        return rows.first?.mailType
    }

    /// Handles one key press.
    ///
    /// While the filter is being edited, printable keys are typed into it; otherwise the ``KeyMap`` decides.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - dashboard: What is on screen, to know the rows to move through.
    /// - Returns: What the session must do beyond the state change.
    package mutating func handle(_ key: Key, dashboard: Dashboard) -> Effect {
        if isEditingFilter {
            switch key {
            case .character(let character) where !character.isNewline && character.asciiValue.map({ $0 >= 32 }) ?? true:
                filter.append(character)
                return .none
            case .backspace:
                if !filter.isEmpty { filter.removeLast() }
                return .none
            case .enter:
                isEditingFilter = false
                return .none
            case .escape:
                isEditingFilter = false
                filter = ""
                return .none
            default:
                break
            }
        }
        guard let action = KeyMap.action(for: key) else { return .none }
        return perform(action, dashboard: dashboard)
    }

    /// Carries out an action.
    ///
    /// - Returns: What the session must do beyond the state change.
    package mutating func perform(_ action: Action, dashboard: Dashboard) -> Effect {
        if isHelpShown {
            switch action {
            case .moveUp: helpScroll = max(0, helpScroll - 1)
            case .moveDown: helpScroll = min(KeyMap.bindings.count, helpScroll + 1)
            case .quit: return .quit
            case .back, .help: isHelpShown = false
            default:
                isHelpShown = false
                return perform(action, dashboard: dashboard)
            }
            return .none
        }
        let rows = visibleMailTypes(in: dashboard)
        switch action {
        case .moveUp: move(by: -1, rows: rows, dashboard: dashboard)
        case .moveDown: move(by: 1, rows: rows, dashboard: dashboard)
        case .pageUp: move(by: -Self.pageSize, rows: rows, dashboard: dashboard)
        case .pageDown: move(by: Self.pageSize, rows: rows, dashboard: dashboard)
        case .moveToTop: move(by: Int.min / 2, rows: rows, dashboard: dashboard)
        case .moveToBottom: move(by: Int.max / 2, rows: rows, dashboard: dashboard)
        case .drillIn:
            if case .overview = screen, let mailType = focusedMailType(in: rows) {
                selected = mailType
                screen = .detail(mailType)
                focus = .recipients
                scroll = [:]
            }
        case .back:
            if case .detail = screen {
                screen = .overview
                focus = .mailTypes
                scroll = [:]
            } else if !filter.isEmpty {
                filter = ""
            }
        case .nextPane, .previousPane:
            let panes = panes
            let index = panes.firstIndex(of: focus) ?? 0
            let step = action == .nextPane ? 1 : panes.count - 1
            focus = panes[(index + step) % panes.count]
        case .cycleSort:
            let columns = SortColumn.allCases
            sortColumn = columns[((columns.firstIndex(of: sortColumn) ?? 0) + 1) % columns.count]
            sortDescending = sortColumn != .name
        case .reverseSort: sortDescending.toggle()
        case .filter:
            if case .detail = screen { screen = .overview }
            focus = .mailTypes
            isEditingFilter = true
        case .pauseDisplay: isDisplayPaused.toggle()
        case .pauseScenario: return .toggleScenarioPause
        case .refreshSlower:
            refreshInterval = Self.refreshSteps.first { $0 > refreshInterval + 1e-9 } ?? refreshInterval
        case .refreshFaster:
            refreshInterval = Self.refreshSteps.last { $0 < refreshInterval - 1e-9 } ?? refreshInterval
        case .resetStatistics: return .resetStatistics
        case .stepBack: return .replayStep(-1)
        case .stepForward: return .replayStep(1)
        case .seekBack: return .replaySeek(-1)
        case .seekForward: return .replaySeek(1)
        case .help:
            isHelpShown = true
            helpScroll = 0
        case .quit: return .quit
        }
        return .none
    }

    private mutating func move(by delta: Int, rows: [MailTypeRow], dashboard: Dashboard) {
        if focus == .mailTypes, case .overview = screen {
            guard !rows.isEmpty else { return }
            let current = focusedMailType(in: rows).flatMap { type in rows.firstIndex { $0.mailType == type } } ?? 0
            let target = min(rows.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
            selected = rows[target].mailType
            return
        }
        let count = itemCount(of: focus, dashboard: dashboard)
        let offset = scroll[focus, default: 0]
        scroll[focus] = min(max(0, count - 1), max(0, offset.addingReportingOverflow(delta).partialValue))
    }

    /// How many rows a scrolling pane has on the current screen.
    package func itemCount(of pane: Pane, dashboard: Dashboard) -> Int {
        let mailType: TypeIdentity? = if case .detail(let type) = screen { type } else { nil }
        switch pane {
        case .mailTypes: return visibleMailTypes(in: dashboard).count
        case .recipients: return dashboard.recipients.count
        case .latency: return 0
        case .prunes: return dashboard.recentPrunes.filter { mailType == nil || $0.mailType == mailType }.count
        case .findings: return dashboard.findings.filter { mailType == nil || $0.mailType == mailType }.count
        }
    }
}
