import PonyExpressMonitor

/// Every recipient of the shown mail type, one row per registration site (kind, recipient type, queue, sender
/// filter), with how many are live, how that grew, the oldest's age, deliveries and the queue's wait; Enter expands a
/// site into its registrations.
struct RecipientsPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let dashboard = context.dashboard
        let lines = context.recipientLines
        let sites = dashboard.sitesMailType == context.mailType ? dashboard.sites : []
        let name = context.mailType?.name ?? "no mail type"
        let count = sites.reduce(0) { $0 + $1.recipients }
        let duplicates = sites.reduce(0) { $0 + $1.duplicates }
        let inherited = sites.filter(\.isInherited).reduce(0) { $0 + $1.recipients }
        var title = "\(Pane.recipients.title) of \(name): \(count) at \(sites.count) site\(sites.count == 1 ? "" : "s")"
        if inherited > 0 { title += ", \(inherited) via superclasses" }
        if duplicates > 0 { title += ", \(duplicates) duplicate" }
        if let required = sites.lazy.compactMap({ $0.registrations.first?.requiredSender }).first {
            title += ", verified: sent by \(required)"
        }
        if context.detail != nil, let mailType = context.mailType, let row = dashboard.row(for: mailType) {
            title += [
                "", "\(Units.compact(row.postsPerSecond)) posts/s",
                "\(Units.compact(row.deliveriesPerSecond)) deliveries/s",
            ].joined(separator: glyphs.separator)
        }
        let inner = Border.draw(in: &grid, rect, title: title, focused: context.isFocused(.recipients), glyphs: glyphs)
        let rows = lines.map { line -> Table.Row in
            switch line {
            case .site(let site, let isExpanded):
                var recipient = site.recipientName
                if site.isInherited { recipient += " via \(site.registeredFor)" }
                // The duplicate marker is what the row warns about: the name gives way before it does.
                let duplicates = site.duplicates > 0 ? " DUP\(site.duplicates > 1 ? "×\(site.duplicates)" : "")" : ""
                let marker = site.registrations.count > 1 ? (isExpanded ? glyphs.expanded : glyphs.collapsed) : " "
                let cells: [Table.Cell] = [
                    .text(site.site, prefix: marker + " "), .text(recipient, suffix: duplicates),
                    .text(site.queue ?? "sync"),
                    .text(site.sender),
                    .text(String(site.recipients)),
                    .text(context.growth(site.growth10s), (site.growth10s ?? 0) > 0 ? .warning : nil),
                    .text(context.growth(site.growth1m), (site.growth1m ?? 0) > 0 ? .warning : nil),
                    .text(site.oldestAge.map { context.age($0) } ?? "-"), .text(Units.count(site.deliveries)),
                    .text(site.queue == nil ? "-" : context.duration(site.queueWaitP99)),
                ]
                return Table.Row(cells: cells, style: site.duplicates > 0 ? .warning : .normal)
            case .registration(let recipient, let site, let isLast):
                // A registration's own row: its id under the site, and every column filled with its own values;
                // growth is a site's, so a registration shows `—` (does not apply) there.
                var markers = recipient.isDuplicate ? ["DUP"] : []
                markers += recipient.markers
                let cells: [Table.Cell] = [
                    .text(
                        "#\(recipient.id)", .dim, prefix: "  " + (isLast ? glyphs.treeLast : glyphs.treeBranch) + " "),
                    .text(
                        recipient.objectType ?? "block",
                        suffix: markers.isEmpty ? "" : " " + markers.joined(separator: " ")),
                    .text(recipient.queue ?? "sync"), .text(recipient.sender), .text("1"),
                    .text(glyphs.notApplicable, .dim), .text(glyphs.notApplicable, .dim),
                    .text(context.age(recipient.age)), .text(Units.count(recipient.deliveries)),
                    .text(recipient.queue == nil ? "-" : context.duration(site.queueWaitP99)),
                ]
                return Table.Row(cells: cells, style: recipient.isDuplicate ? .warning : .normal)
            }
        }
        let message =
            context.mailType == nil
            ? "no mail type selected" : "no live recipients (registered for \(name) or a superclass of it)"
        Table(
            columns: Pane.recipients.columns, rows: rows,
            sort: context.state.isOrderFrozen ? nil : context.state.sortOrder(of: .recipients),
            selected: context.selected(.recipients, keys: lines.map(\.key)),
            highlightsSelection: context.isFocused(.recipients), emptyMessage: message, pane: .recipients
        ).draw(in: &grid, frame: rect, inner: inner, glyphs: glyphs)
    }
}
