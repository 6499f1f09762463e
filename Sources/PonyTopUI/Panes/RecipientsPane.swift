import PonyExpressMonitor

/// The recipients of the shown mail type: kind, object type, queue, sender filter, site, deliveries, duplicates.
struct RecipientsPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let dashboard = context.dashboard
        let matches = context.mailType != nil && dashboard.recipientsMailType == context.mailType
        let recipients = matches ? dashboard.recipients : []
        let name = context.mailType?.name ?? "no mail type"
        let duplicates = recipients.filter(\.isDuplicate).count
        var title = "\(Pane.recipients.title) of \(name) (\(recipients.count)"
        if duplicates > 0 { title += ", \(duplicates) duplicate" }
        title += ")"
        if context.detail != nil, let mailType = context.mailType, let row = dashboard.row(for: mailType) {
            title += [
                "", "\(Units.compact(row.postsPerSecond)) posts/s",
                "\(Units.compact(row.deliveriesPerSecond)) deliveries/s",
                "\(Units.count(row.posts)) posted", "\(Units.count(row.pruned)) pruned",
            ].joined(separator: glyphs.separator)
        }
        let inner = Frame.draw(in: &grid, rect, title: title, focused: context.isFocused(.recipients), glyphs: glyphs)
        guard inner.height >= 1 else { return }
        let columns: [TableColumn] = [
            TableColumn(heading: "KIND", width: 6, priority: 60),
            TableColumn(heading: "OBJECT TYPE", width: 12, flexible: true, priority: 90),
            TableColumn(heading: "QUEUE", width: 8, flexible: true, priority: 50),
            TableColumn(heading: "SENDER", width: 8, flexible: true, priority: 40),
            TableColumn(heading: "SITE", width: 14, flexible: true, priority: 80),
            TableColumn(heading: "DELIVERED", width: 9, rightAligned: true, priority: 70),
            TableColumn(heading: "DUP", width: 3, priority: 100),
        ]
        let placed = TableColumn.fit(columns, width: inner.width)
        for (index, place) in placed.enumerated() {
            guard let place else { continue }
            Text.write(
                columns[index].heading, in: &grid, x: inner.x + place.x, y: inner.y, width: place.width, style: .label,
                glyphs: glyphs, rightAligned: columns[index].rightAligned)
        }
        let visible = inner.height - 1
        guard visible > 0 else { return }
        if recipients.isEmpty {
            Text.write(
                "no live recipients", in: &grid, x: inner.x + 1, y: inner.y + 1, width: inner.width - 1, style: .dim,
                glyphs: glyphs)
            return
        }
        let offset = context.scrollOffset(.recipients, count: recipients.count, visible: visible)
        for (line, recipient) in recipients.dropFirst(offset).prefix(visible).enumerated() {
            let values = [
                recipient.kind, recipient.objectType ?? "-", recipient.queue ?? "sync", recipient.sender,
                recipient.site,
                Units.count(recipient.deliveries), recipient.isDuplicate ? "DUP" : "",
            ]
            for (index, value) in values.enumerated() {
                guard let place = placed[index] else { continue }
                let style: Style = recipient.isDuplicate ? .warning : (index == 4 ? .dim : .normal)
                Text.write(
                    value, in: &grid, x: inner.x + place.x, y: inner.y + 1 + line, width: place.width, style: style,
                    glyphs: glyphs, rightAligned: columns[index].rightAligned, keepEnd: index == 4)
            }
        }
    }
}
