import PonyExpress

/// Everything the user has chosen: screen, selections, focus, sorting, expansions, filter, pauses and refresh
/// interval.
///
/// Keys change it through ``handle(_:dashboard:)``, a pure transition that returns an ``Effect`` for the session to
/// carry out. Drawing reads it and never changes it, but for the frame's ``layout``, which ``draw(_:with:)`` keeps
/// for the next key.
package struct AppState: Equatable, Sendable {
    /// Which screen is shown.
    package enum Screen: Equatable, Sendable {
        /// Every pane, the mail types table in charge.
        case overview
        /// One mail type: its recipients, latency, prunes and findings fill the screen.
        case mailType(TypeIdentity)
        /// Every queue with its backlog and wait.
        case queues
    }

    /// The refresh intervals `+` and `-` step through, in seconds.
    package static let refreshSteps: [Double] = [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10]
    /// Rows moved by PgUp and PgDn.
    package static let pageSize = 10

    /// The screen.
    package var screen: Screen = .overview
    /// Whether the help screen is up.
    package var isHelpShown = false
    /// The first line of help shown.
    package var helpScroll = 0
    /// The pane whose selected row's details are shown over the screen, if any.
    package var details: Pane?
    /// The first line of the details shown.
    package var detailsScroll = 0
    /// The pane the arrows act on.
    package var focus: Pane = .mailTypes
    /// The selected row of each pane; the first row when there is none.
    package var cursors: [Pane: Cursor] = [:]
    /// How each table is sorted, when the user chose; ``TablePane/defaultSort`` otherwise.
    package var sorts: [Pane: SortOrder] = [:]
    /// The row order of each table when the user froze it; `nil` while rows follow the sort.
    package var frozenOrders: [Pane: [String]]?
    /// The sites and prune groups shown with their registrations or prunes below them.
    package var expanded: Set<String> = []
    /// Whether the mail types are shown as a class tree.
    package var isTreeShown = false
    /// Mail types whose names do not contain this (ignoring case) are hidden.
    package var filter = ""
    /// Whether keys are typed into the filter.
    package var isEditingFilter = false
    /// Whether the display is frozen (the scenario keeps running).
    package var isDisplayPaused = false
    /// Whether ponytop is asking to confirm a reset of the statistics.
    package var isConfirmingReset = false
    /// A line for the footer about what the last key did, until the next key.
    package var notice: String?
    /// Seconds between refreshes.
    package var refreshInterval: Double
    /// The terminal's width in columns; the session sets it, so that help and details page by what they show.
    package var terminalWidth = Renderer.minimumWidth
    /// The terminal's height in rows; the session sets it, so that help and details page by what they show.
    package var terminalHeight = Renderer.minimumHeight
    /// What the frame on the screen shows that keys act on (the columns each table shows, how far help and details
    /// scroll), as the renderer worked it out drawing it; empty before the first frame.
    package var layout = FrameLayout()

    /// Creates the start-up state.
    ///
    /// - Parameter refreshInterval: Seconds between refreshes.
    package init(refreshInterval: Double = 0.5) {
        self.refreshInterval = refreshInterval
    }

    /// Draws one frame at the terminal's size and keeps its ``layout`` for the keys that follow: the session's one
    /// way to draw, so that keys act on the frame the user sees.
    ///
    /// - Parameters:
    ///   - dashboard: What to show.
    ///   - renderer: The renderer for the terminal's glyphs.
    /// - Returns: The frame to present.
    package mutating func draw(_ dashboard: Dashboard, with renderer: Renderer) -> Grid {
        let frame = renderer.render(dashboard, state: self, width: terminalWidth, height: terminalHeight)
        layout = frame.layout
        return frame
    }

    /// Whether the row order is frozen.
    package var isOrderFrozen: Bool { frozenOrders != nil }

    /// The mail type drilled into, `nil` on other screens.
    package var drilledMailType: TypeIdentity? {
        if case .mailType(let type) = screen { return type }
        return nil
    }

    /// The panes Tab cycles through on the current screen, in its layout's reading order: those with rows to
    /// select (the latency pane has none).
    package var panes: [Pane] {
        screen.layout.panes.filter { $0.rows != nil }
    }

    /// The table `<`, `>` and `I` sort: the focused pane, `nil` when it is not a table (findings keep their
    /// ranking, so that sorting never reorders a pane the user is not looking at).
    package var sortedPane: Pane? {
        focus.table == nil ? nil : focus
    }

    /// How a pane's table is sorted now.
    package func sortOrder(of pane: Pane) -> SortOrder? {
        sorts[pane] ?? pane.table?.defaultSort
    }

    /// Handles one key press.
    ///
    /// While the filter is being edited, printable keys are typed into it; while a reset waits for confirmation,
    /// `y` (or `r` again) confirms and any other key cancels; otherwise the ``KeyMap`` decides.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - dashboard: What is on screen, to know the rows to move through.
    /// - Returns: What the session must do beyond the state change.
    package mutating func handle(_ key: Key, dashboard: Dashboard) -> Effect {
        notice = nil
        if isConfirmingReset {
            isConfirmingReset = false
            if key == .character("y") || key == .character("r") {
                switch dashboard.status.resetScope {
                case .everything: notice = "statistics reset; live recipients kept"
                case .viewerFindings: notice = "this viewer's findings forgotten; the app's counters are its own"
                case .appForEveryViewer: notice = "the app's statistics reset, for every viewer; live recipients kept"
                case .nothing: break
                }
                return .resetStatistics
            }
            notice = "reset cancelled; nothing cleared"
            return .none
        }
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
            if let scroll = scrolled(helpScroll, by: action, last: layout.helpScrollLimit) {
                helpScroll = scroll
                return .none
            }
            switch action {
            case .quit: return .quit
            case .back, .help: isHelpShown = false
            default:
                isHelpShown = false
                return perform(action, dashboard: dashboard)
            }
            return .none
        }
        if details != nil {
            if let scroll = scrolled(detailsScroll, by: action, last: layout.detailsScrollLimit) {
                detailsScroll = scroll
                return .none
            }
            switch action {
            case .back, .details, .open: details = nil
            case .quit: return .quit
            default:
                details = nil
                return perform(action, dashboard: dashboard)
            }
            return .none
        }
        switch action {
        case .moveUp: move(by: -1, dashboard: dashboard)
        case .moveDown: move(by: 1, dashboard: dashboard)
        case .pageUp: move(by: -Self.pageSize, dashboard: dashboard)
        case .pageDown: move(by: Self.pageSize, dashboard: dashboard)
        case .moveToTop: move(by: Int.min / 2, dashboard: dashboard)
        case .moveToBottom: move(by: Int.max / 2, dashboard: dashboard)
        case .open: open(dashboard: dashboard)
        case .details: showDetails(dashboard: dashboard)
        case .goToSite: goToSite(dashboard: dashboard)
        case .back: back(dashboard: dashboard)
        case .nextPane, .previousPane:
            let panes = panes
            let index = panes.firstIndex(of: focus) ?? 0
            let step = action == .nextPane ? 1 : panes.count - 1
            focus = panes[(index + step) % panes.count]
        case .sortLeft, .sortRight: moveSort(by: action == .sortLeft ? -1 : 1)
        case .invertSort:
            guard let pane = sortedPane else {
                notice = Self.unsortedNotice
                return .none
            }
            if var order = sortOrder(of: pane) {
                order.descending.toggle()
                sorts[pane] = order
                unfreezeForSort()
            }
        case .freezeOrder: toggleFrozenOrder(dashboard: dashboard)
        case .tree:
            isTreeShown.toggle()
            notice = isTreeShown ? "mail types as a class tree" : "mail types as a flat table"
        case .queues:
            if screen == .queues {
                screen = .overview
                focus = .mailTypes
            } else {
                screen = .queues
                focus = .queues
            }
        case .filter:
            if screen != .overview { screen = .overview }
            focus = .mailTypes
            isEditingFilter = true
        case .pauseDisplay: isDisplayPaused.toggle()
        case .lengthenInterval:
            refreshInterval = Self.refreshSteps.first { $0 > refreshInterval + 1e-9 } ?? refreshInterval
        case .shortenInterval:
            refreshInterval = Self.refreshSteps.last { $0 < refreshInterval - 1e-9 } ?? refreshInterval
        case .resetStatistics:
            // Nothing to lose where nothing resets (a replay): the source says so at once, with no question first.
            guard dashboard.status.resetScope != .nothing else { return .resetStatistics }
            isConfirmingReset = true
        case .source(let effect): return effect
        case .help:
            isHelpShown = true
            helpScroll = 0
        case .quit: return .quit
        }
        return .none
    }

    /// The rows an overlay (help, details) shows at once: the body less its frame.
    var overlayPage: Int { max(1, terminalHeight - Renderer.chromeHeight - 2) }

    /// An overlay's first line after a moving key, kept within `0...last`; `nil` for keys that do not scroll.
    private func scrolled(_ scroll: Int, by action: Action, last: Int) -> Int? {
        let target: Int
        switch action {
        case .moveUp: target = scroll - 1
        case .moveDown: target = scroll + 1
        case .pageUp: target = scroll - overlayPage
        case .pageDown: target = scroll + overlayPage
        case .moveToTop: target = 0
        case .moveToBottom: target = last
        default: return nil
        }
        return max(0, min(last, target))
    }

    /// What `<`, `>` and `I` say when the focused pane is not a table.
    static let unsortedNotice = "findings are ranked by what to act on first; Tab to a table to sort it"

    /// Sorts the focused table by the next or previous column shown: a column a narrow screen left out is skipped.
    private mutating func moveSort(by step: Int) {
        guard let pane = sortedPane else {
            notice = Self.unsortedNotice
            return
        }
        // The columns the frame on the screen shows; every one before the first frame.
        let drawn = layout.shownColumns[pane]
        let columns = (pane.table?.columns ?? []).filter { $0.isSortable && drawn?.contains($0.id) != false }
        guard !columns.isEmpty else { return }
        let current = sortOrder(of: pane).flatMap { order in columns.firstIndex { $0.id == order.column } }
        let column = columns[((current ?? (step > 0 ? -1 : 0)) + step + columns.count) % columns.count]
        sorts[pane] = SortOrder(column: column.id, descending: column.sortsDescendingFirst)
        unfreezeForSort()
    }

    private mutating func unfreezeForSort() {
        if frozenOrders != nil {
            frozenOrders = nil
            notice = "row order follows the sort again"
        }
    }

    private mutating func toggleFrozenOrder(dashboard: Dashboard) {
        if frozenOrders != nil {
            frozenOrders = nil
            notice = "row order follows the sort again"
            return
        }
        var orders: [Pane: [String]] = [:]
        for pane in Pane.allCases {
            if let table = pane.table { orders[pane] = recordKeys(of: table, in: dashboard) }
        }
        frozenOrders = orders
        notice = "row order frozen: new rows go last; f lets rows follow the sort again"
    }
}
