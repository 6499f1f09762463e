import PonyExpress
import PonyExpressMonitor
import PonyTopModel

/// What every pane reads while drawing one frame: the dashboard, the state and the rows that follow from them,
/// worked out once.
struct DrawContext {
    let dashboard: Dashboard
    let state: AppState
    let glyphs: GlyphSet
    /// The mail types table's rows, filtered, sorted, as a tree when asked.
    let mailTypeLines: [MailTypeLine]
    /// The mail type whose details are shown (drilled into, or selected).
    let mailType: TypeIdentity?
    /// The drilled-into mail type, `nil` on other screens.
    let detail: TypeIdentity?
    /// The recipients table's rows.
    let recipientLines: [RecipientLine]
    /// The prunes table's rows.
    let pruneLines: [PruneLine]
    /// The findings shown.
    let findings: [FindingLog.Entry]
    /// The queues table's rows.
    let queues: [QueueStats]

    init(dashboard: Dashboard, state: AppState, glyphs: GlyphSet) {
        self.dashboard = dashboard
        self.state = state
        self.glyphs = glyphs
        mailTypeLines = MailTypesPane.lines(in: dashboard, state: state)
        mailType = state.focusedMailType(in: dashboard)
        detail = state.drilledMailType
        recipientLines = RecipientsPane.lines(in: dashboard, state: state)
        pruneLines = PrunesPane.lines(in: dashboard, state: state)
        findings = FindingsPane.lines(in: dashboard, state: state)
        queues = QueuesPane.lines(in: dashboard, state: state)
    }

    func isFocused(_ pane: Pane) -> Bool { state.focus == pane && !state.isHelpShown && state.details == nil }

    func duration(_ nanoseconds: UInt64) -> String { Units.duration(nanoseconds, micro: glyphs.micro) }

    /// Text the monitor wrote with its units (a finding's explanation), in this screen's glyphs: `µs` is `us` in
    /// ASCII.
    func inGlyphs(_ text: String) -> String {
        glyphs.micro == "µ" ? text : text.replacing("µ", with: glyphs.micro)
    }

    /// A duration, or `-` when there is none.
    func duration(_ nanoseconds: UInt64?) -> String { nanoseconds.map { duration($0) } ?? "-" }

    /// An age in whole units: `42s`, `3m`, `2h`.
    func age(_ nanoseconds: UInt64) -> String { Units.age(nanoseconds, micro: glyphs.micro) }

    /// How long before the snapshot's time `time` was, as an age: `41s`.
    func age(since time: Nanoseconds) -> String { age(dashboard.time.elapsed(since: time)) }

    /// How long ago: `3s ago`, or `just now`.
    func ago(_ nanoseconds: UInt64) -> String { Units.ago(nanoseconds, micro: glyphs.micro) }

    /// How long before the snapshot `time` was, on the monitor's clock: `3s ago`, or `just now`.
    func ago(since time: Nanoseconds) -> String { ago(dashboard.time.elapsed(since: time)) }

    /// A latency distribution in a line: its percentiles, maximum and count, or `none`.
    func latency(_ distribution: LatencySummary) -> String {
        guard distribution.count > 0 else { return "none" }
        return "p50 \(duration(distribution.p50)), p90 \(duration(distribution.p90)), "
            + "p99 \(duration(distribution.p99)), max \(duration(distribution.max)) over \(distribution.count)"
    }

    /// A change in a count: `+40`, `-3`, `0`, or `-` when unknown.
    func growth(_ value: Int?) -> String {
        guard let value else { return "-" }
        return value > 0 ? "+\(value)" : "\(value)"
    }

    /// The selected row of a pane, by position.
    func selected(_ pane: Pane, keys: [String]) -> Int? {
        state.cursor(of: pane).position(in: keys)
    }
}
