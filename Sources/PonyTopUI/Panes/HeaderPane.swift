import PonyExpressMonitor

/// The top two lines: scenario, phase, uptime, refresh interval and markers; then rates with sparklines and totals,
/// named with the same words at every size.
struct HeaderPane {
    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        guard rect.height >= 2 else { return }
        let dashboard = context.dashboard
        let glyphs = context.glyphs
        let scenario = dashboard.status
        grid.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), style: .header)
        var phase = "phase \(scenario.phase) \(scenario.phaseIndex + 1)/\(scenario.phaseCount)"
        if scenario.isFinished { phase = "finished" }
        let source = scenario.title.map { [$0] } ?? ["scenario \(scenario.name)", phase]
        var parts =
            ["ponytop"] + source + [
                "up \(Units.clock(dashboard.uptime))", "refresh \(Units.seconds(context.state.refreshInterval))",
            ]
        var markers: [String] = []
        if scenario.isRecording { markers.append("REC") }
        if let warning = scenario.warning { markers.append(warning) }
        if let notice = scenario.notice { markers.append(notice) }
        if context.state.isDisplayPaused { markers.append("PAUSED") }
        if context.state.isOrderFrozen { markers.append("ORDER FROZEN") }
        if scenario.isPaused { markers.append("SCENARIO PAUSED") }
        let marker = markers.map { "[\($0)]" }.joined(separator: " ")
        let markerWidth = Text.width(marker)
        // Whole parts go when the line is too narrow (the refresh interval, then the name), never half a number.
        let room = rect.width - markerWidth - 3
        for dropped in [parts.count - 1, 0] where Text.width(parts.joined(separator: glyphs.separator)) > room {
            parts.remove(at: dropped)
        }
        let top = parts.joined(separator: glyphs.separator)
        Text.write(
            " " + top, in: &grid, x: rect.x, y: rect.y, width: rect.width - markerWidth - 2, style: .header,
            glyphs: glyphs)
        if !marker.isEmpty {
            // Markers wider than the line (a long notice at 80 columns) keep their start and end with an ellipsis:
            // written from left of the line, they lost their first words.
            let width = min(markerWidth, rect.width - 2)
            Text.write(
                marker, in: &grid, x: rect.x + rect.width - width - 1, y: rect.y, width: width, style: .warning,
                glyphs: glyphs)
        }

        let y = rect.y + 1
        let fields: [(label: String, value: String, spark: [Double]?, style: Style)] = [
            ("posts/s", Units.compact(dashboard.postsPerSecond), dashboard.postsHistory, .accent),
            ("deliveries/s", Units.compact(dashboard.deliveriesPerSecond), dashboard.deliveriesHistory, .accent),
            ("recipients", String(dashboard.recipients), nil, .accent),
            ("pruned", Units.count(dashboard.pruned), nil, .accent),
            ("findings", String(dashboard.findings.count), nil, dashboard.findings.isEmpty ? .accent : .critical),
        ]
        let textWidth = fields.reduce(1) { $0 + Text.width($1.label) + 1 + Text.width($1.value) + 2 }
        let sparks = fields.filter { $0.spark != nil }.count
        let sparkWidth = min(20, (rect.width - textWidth) / sparks - 1)
        var x = rect.x + 1
        for field in fields {
            x += grid.write(field.label + " ", x: x, y: y, style: .label)
            x += grid.write(field.value, x: x, y: y, style: field.style)
            if let spark = field.spark, sparkWidth >= 3 {
                grid.write(
                    scalars: Sparkline.render(spark, width: sparkWidth, glyphs: glyphs), x: x + 1, y: y, style: .graph)
                x += sparkWidth + 1
            }
            x += 2
        }
    }
}
