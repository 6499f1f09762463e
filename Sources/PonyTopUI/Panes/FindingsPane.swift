/// Leak, over-subscription and slowness findings, newest first, each with its mail type, site and explanation.
struct FindingsPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let findings = context.dashboard.findings.filter { context.detail == nil || $0.mailType == context.detail }
        var title = "\(Pane.findings.title) (\(findings.count))"
        if let detail = context.detail { title = "\(Pane.findings.title) about \(detail.name) (\(findings.count))" }
        let inner = Frame.draw(in: &grid, rect, title: title, focused: context.isFocused(.findings), glyphs: glyphs)
        guard inner.height >= 1, inner.width >= 4 else { return }
        if findings.isEmpty {
            Text.write(
                "no findings", in: &grid, x: inner.x + 1, y: inner.y, width: inner.width - 1, style: .dim,
                glyphs: glyphs)
            return
        }
        let visible = max(1, inner.height / 2)
        let offset = context.scrollOffset(.findings, count: findings.count, visible: visible)
        var y = inner.y
        for finding in findings.dropFirst(offset) {
            guard y < inner.y + inner.height else { break }
            let category = finding.category.uppercased()
            var x = inner.x
            x +=
                Text.write(
                    category, in: &grid, x: x, y: y, width: inner.width,
                    style: finding.category == "slow" ? .warning : .critical,
                    glyphs: glyphs) + 1
            x +=
                Text.write(
                    finding.kind, in: &grid, x: x, y: y, width: inner.x + inner.width - x, style: .label, glyphs: glyphs
                ) + 1
            x +=
                Text.write(
                    finding.mailType.name, in: &grid, x: x, y: y, width: inner.x + inner.width - x, style: .accent,
                    glyphs: glyphs) + 1
            if let site = finding.site, x + 4 < inner.x + inner.width {
                x += grid.write("at ", x: x, y: y, style: .dim)
                Text.write(
                    site, in: &grid, x: x, y: y, width: inner.x + inner.width - x, style: .dim, glyphs: glyphs,
                    keepEnd: true)
            }
            y += 1
            guard y < inner.y + inner.height else { break }
            Text.write(
                finding.explanation, in: &grid, x: inner.x + 2, y: y, width: inner.width - 2, style: .normal,
                glyphs: glyphs)
            y += 1
        }
    }
}
