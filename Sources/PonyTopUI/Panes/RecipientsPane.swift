import PonyExpressMonitor
import PonyTopModel

/// The columns of the recipients table.
package enum RecipientColumn: String, TableColumn {
    case site, recipientType, queue, sender, recipients, growth10s, growth1m, oldest, deliveries, waitP99
}

/// Every recipient of the shown mail type, one row per registration site (kind, recipient type, queue, sender
/// filter), with how many are live, how that grew, the oldest's age, deliveries and the queue's wait; Enter expands a
/// site into its registrations.
struct RecipientsPane: ExpandingTablePane {
    typealias Record = SiteRow
    typealias Line = RecipientLine
    typealias ColumnID = RecipientColumn

    static let pane = Pane.recipients
    static let title = "Recipients"

    static let columns = [
        Column(ColumnID.site, "SITE", .site, priority: 100, minimumWidth: 14),
        Column(ColumnID.recipientType, "RECIPIENT", .text, priority: 95, minimumWidth: 8),
        Column(ColumnID.queue, "QUEUE", .text, priority: 60, minimumWidth: 5),
        Column(ColumnID.sender, "SENDER", .text, priority: 40, minimumWidth: 5),
        Column(ColumnID.recipients, "RECIPIENTS", .number, priority: 98),
        Column(ColumnID.growth10s, "+10S", .number, priority: 90),
        Column(ColumnID.growth1m, "+1M", .number, priority: 85),
        Column(ColumnID.oldest, "OLDEST", .number, priority: 80),
        Column(ColumnID.deliveries, "DELIVERIES", .number, priority: 45),
        Column(ColumnID.waitP99, "WAIT P99", .number, priority: 65),
    ]

    static let defaultSort = SortOrder(column: ColumnID.recipients, descending: true)

    /// The sites of the shown mail type's recipients; none while the dashboard's sites are another mail type's.
    static func records(in dashboard: Dashboard, state: AppState) -> [SiteRow] {
        guard let mailType = state.focusedMailType(in: dashboard), dashboard.sitesMailType == mailType else {
            return []
        }
        return dashboard.sites
    }

    static func sortKey(_ column: RecipientColumn, of site: SiteRow) -> SortKey {
        switch column {
        case .site: .location(site.site)
        case .recipientType: .text(site.recipientName)
        case .queue: .text(site.queue ?? "")
        case .sender: .text(site.sender.notation)
        case .recipients: .count(site.recipients)
        case .growth10s: .optional(site.growth10s)
        case .growth1m: .optional(site.growth1m)
        case .oldest: .optional(site.oldestAge)
        case .deliveries: .count(site.deliveries)
        case .waitP99: .optional(site.queueWaitP99)
        }
    }

    let context: DrawContext

    func style(of line: RecipientLine) -> Style {
        switch line {
        case .record(let site, _): site.duplicates > 0 || site.outlived > 0 ? .warning : .normal
        case .part(let receiver, _, _): receiver.recipient.isDuplicate ? .warning : .normal
        }
    }

    func cell(_ column: RecipientColumn, of line: RecipientLine) -> Table.Cell {
        switch line {
        case .record(let site, let isExpanded): cell(column, of: site, isExpanded: isExpanded)
        case .part(let receiver, let site, let index): cell(column, of: receiver, in: site, index: index)
        }
    }

    /// A site's cell: what its registrations add up to.
    private func cell(_ column: RecipientColumn, of site: SiteRow, isExpanded: Bool) -> Table.Cell {
        let glyphs = context.glyphs
        switch column {
        case .site:
            return .text(
                site.site.description, prefix: site.expansionMark(isExpanded: isExpanded, glyphs: glyphs) + " ")
        case .recipientType:
            var recipient = site.recipientName
            if site.isInherited { recipient += " via \(site.registeredFor)" }
            // The duplicate marker is what the row warns about: the name gives way before it does.
            let duplicates = site.duplicates > 0 ? " DUP\(site.duplicates > 1 ? "×\(site.duplicates)" : "")" : ""
            let scopes = site.scopeSummary.isEmpty ? "" : " " + site.scopeSummary
            return .text(recipient, suffix: duplicates + scopes)
        case .queue: return .text(site.queue ?? "sync")
        case .sender: return .text(site.sender.notation)
        case .recipients: return .text(String(site.recipients))
        case .growth10s: return .text(context.growth(site.growth10s), (site.growth10s ?? 0) > 0 ? .warning : nil)
        case .growth1m: return .text(context.growth(site.growth1m), (site.growth1m ?? 0) > 0 ? .warning : nil)
        case .oldest: return .text(site.oldestAge.map { context.age($0) } ?? "-")
        case .deliveries: return .text(Units.count(site.deliveries))
        case .waitP99: return .text(site.queue == nil ? "-" : context.duration(site.queueWaitP99))
        }
    }

    /// A registration's cell: its id under the site, and every column filled with its own values; growth is a
    /// site's, so a registration shows `—` (does not apply) there.
    private func cell(
        _ column: RecipientColumn, of receiver: ReceiverStats, in site: SiteRow, index: Int
    ) -> Table.Cell {
        let glyphs = context.glyphs
        let info = receiver.recipient.info
        switch column {
        case .site:
            return .text("#\(info.id.rawValue)", .dim, prefix: "  " + site.branch(toPart: index, glyphs: glyphs) + " ")
        case .recipientType:
            let markers = (receiver.recipient.isDuplicate ? ["DUP"] : []) + receiver.recipient.markers
            return .text(info.kind.recipientName, suffix: markers.isEmpty ? "" : " " + markers.joined(separator: " "))
        case .queue: return .text(info.queueLabel ?? "sync")
        case .sender: return .text(info.sender.notation)
        case .recipients: return .text("1")
        case .growth10s, .growth1m: return .text(glyphs.notApplicable, .dim)
        case .oldest: return .text(context.age(since: info.registeredAt))
        case .deliveries: return .text(Units.count(receiver.deliveries))
        case .waitP99: return .text(info.queueLabel == nil ? "-" : context.duration(site.queueWaitP99))
        }
    }

    func details(of line: RecipientLine) -> (title: String, fields: [(name: String, value: String)]) {
        switch line {
        case .record(let site, _): details(of: site)
        case .part(let receiver, let site, _): details(of: receiver, in: site)
        }
    }

    private func details(of site: SiteRow) -> (title: String, fields: [(name: String, value: String)]) {
        var fields: [(name: String, value: String)] = [
            ("site", site.site.description),
            (
                "registered for",
                site.registeredFor
                    + (site.isInherited
                        ? " (a superclass of \(context.mailType?.name ?? "the mail type"): receives its mail as subclass mail)"
                        : "")
            ),
            (
                "recipient",
                site.kind.objectType.map { "\($0.name) (an object, held weakly, and a method)" }
                    ?? "a block, held strongly until unregistered"
            ),
            ("queue", site.queue ?? "none: synchronous, on the posting thread"),
            ("sender filter", site.sender.meaning),
            ("recipients", "\(site.recipients) live"),
            ("growth", "\(context.growth(site.growth10s)) in 10 s, \(context.growth(site.growth1m)) in 1 min"),
            ("oldest", site.oldestAge.map { context.age($0) } ?? "-"),
            ("deliveries", String(site.deliveries)),
            ("queue wait p99", site.queue == nil ? "- (synchronous)" : context.duration(site.queueWaitP99)),
            ("duplicates", String(site.duplicates)),
        ]
        for (index, scope) in site.scopes.enumerated() {
            fields.append((index == 0 ? "scopes" : "", Self.describe(scope)))
        }
        for (index, receiver) in site.registrations.enumerated() {
            let info = receiver.recipient.info
            var line =
                "#\(info.id.rawValue), age \(context.age(since: info.registeredAt)), \(receiver.deliveries) deliveries"
            if receiver.recipient.isDuplicate { line += ", DUP" }
            let markers = receiver.recipient.markers
            if !markers.isEmpty { line += ", " + markers.joined(separator: ", ") }
            fields.append((index == 0 ? "registrations" : "", line))
        }
        return ("Site \(site.site)", fields)
    }

    /// One scope name's counts at a site, as the details say them.
    static func describe(_ scope: ScopeCounts) -> String {
        let ended = scope.endedScopes == 1 ? "1 ended" : "\(scope.endedScopes) ended"
        var line = "\(scope.name): \(ended), \(scope.leakedScopes) leaked, \(scope.cleanScopes) clean"
        if scope.outlived > 0 {
            line += ", \(scope.outlived) registration\(scope.outlived == 1 ? "" : "s") outlived and still registered"
        }
        return line
    }

    private func details(
        of receiver: ReceiverStats, in site: SiteRow
    ) -> (title: String, fields: [(name: String, value: String)]) {
        let info = receiver.recipient.info
        let markers = receiver.recipient.markers
        return (
            "Registration #\(info.id.rawValue)",
            [
                ("id", String(info.id.rawValue)), ("site", info.site.description),
                ("registered for", info.mailType.name),
                ("recipient", info.kind.recipientName),
                ("queue", info.queueLabel ?? "none: synchronous, on the posting thread"),
                ("sender filter", info.sender.meaning), ("age", context.age(since: info.registeredAt)),
                ("deliveries", String(receiver.deliveries)),
                (
                    "duplicate",
                    receiver.recipient.isDuplicate
                        ? "yes: the same object is registered again for this mail type" : "no"
                ),
                ("markers", markers.isEmpty ? "none" : markers.joined(separator: ", ")),
                ("site's recipients", String(site.recipients)),
            ]
        )
    }

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let dashboard = context.dashboard
        let lines = context.recipientLines
        let sites = dashboard.sitesMailType == context.mailType ? dashboard.sites : []
        let name = context.mailType?.name ?? "no mail type"
        let count = sites.reduce(0) { $0 + $1.recipients }
        let duplicates = sites.reduce(0) { $0 + $1.duplicates }
        let inherited = sites.filter(\.isInherited).reduce(0) { $0 + $1.recipients }
        var title = "\(Self.title) of \(name): \(count) at \(sites.count) site\(sites.count == 1 ? "" : "s")"
        if inherited > 0 { title += ", \(inherited) via superclasses" }
        if duplicates > 0 { title += ", \(duplicates) duplicate" }
        if let required = sites.lazy.compactMap({ $0.registrations.first?.recipient.info.requiredSender?.name }).first {
            title += ", verified: sent by \(required)"
        }
        if context.detail != nil, let mailType = context.mailType, let row = dashboard.row(for: mailType) {
            title += [
                "", "\(Units.compact(row.postsPerSecond)) posts/s",
                "\(Units.compact(row.deliveriesPerSecond)) deliveries/s",
            ].joined(separator: glyphs.separator)
        }
        let inner = Border.draw(in: &grid, rect, title: title, focused: context.isFocused(.recipients), glyphs: glyphs)
        let message =
            context.mailType == nil
            ? "no mail type selected" : "no live recipients (registered for \(name) or a superclass of it)"
        table(
            lines, highlightsSelection: context.isFocused(.recipients), emptyMessage: message
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: glyphs)
    }
}
