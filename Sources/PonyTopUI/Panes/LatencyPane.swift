import Foundation
import PonyExpressMonitor

/// The latency histogram of the shown mail type (or of all): log-scale buckets, handler time and queue wait side by
/// side, with p50/p90/p99/max.
struct LatencyPane: PaneView {
    /// The pane's title, before what it is about.
    static let title = "Latency"

    let context: DrawContext

    func draw(in grid: inout Grid, _ rect: Rect) {
        let glyphs = context.glyphs
        let handler: LatencySummary
        let queue: LatencySummary
        let title: String
        var waitNone = "none (synchronous delivery)"
        // The monitor times handlers per mail type, not per queue: the queues screen shows only the wait.
        let isQueue = context.state.screen == .queues
        if isQueue {
            let selected = context.selected(.queues, keys: context.queues.map(\.key)).map { context.queues[$0] }
            handler = .empty
            queue = selected?.wait ?? context.dashboard.queueWait
            title = "Wait on \(selected?.label ?? "every queue")"
        } else {
            let row = context.mailType.flatMap { context.dashboard.row(for: $0) }
            handler = row?.handlerLatency ?? context.dashboard.handlerLatency
            queue = row?.queueWait ?? context.dashboard.queueWait
            title = "\(Self.title) of \(row?.name ?? "all mail types")"
            // Waits count under the posted type: a superclass's queued recipients wait on its subclasses' posts.
            if let row, row.queueWait.count == 0, context.recipientLines.contains(where: { $0.owner.queue != nil }) {
                waitNone = Self.ownPostsNone
            }
        }
        let inner = Border.draw(in: &grid, rect, title: title, focused: context.isFocused(.latency), glyphs: glyphs)
        guard inner.height >= 1, inner.width >= 10 else { return }
        // A small table, so that p99 and max fit whole in the narrowest pane (31 columns).
        let columns = ["p50", "p90", "p99", "max"]
        Text.write(
            String(repeating: " ", count: Self.labelWidth)
                + columns.map { $0.leftPadding(Self.valueWidth + 1) }.joined(),
            in: &grid, x: inner.x, y: inner.y, width: inner.width, style: .label, glyphs: glyphs)
        guard inner.height >= 2 else { return }
        summary(
            in: &grid, inner.x, inner.y + 1, inner.width, glyph: glyphs.bar, style: .graph, "run", handler,
            empty: isQueue ? "timed per mail type, not per queue" : "no handler runs")
        guard inner.height >= 3 else { return }
        summary(
            in: &grid, inner.x, inner.y + 2, inner.width, glyph: glyphs.queueBar, style: .queue, "wait", queue,
            empty: waitNone)
        let rows = inner.height - 3
        guard rows > 0 else { return }
        if handler.count == 0 && queue.count == 0 {
            let message =
                waitNone == Self.ownPostsNone
                ? "its recipients get subclass mail, timed under each subclass" : "no deliveries yet"
            Text.write(
                message, in: &grid, x: inner.x + 1, y: inner.y + 3, width: inner.width - 1, style: .dim,
                glyphs: glyphs)
            return
        }
        let buckets = Self.merge(handler: handler.buckets, queue: queue.buckets, rows: rows)
        let labelWidth = buckets.map { Text.width(glyphs.atMost + context.duration($0.bound)) }.max() ?? 0
        let barWidth = max(1, (inner.width - labelWidth - 2) / 2)
        let peak = buckets.reduce(UInt64(0)) { Swift.max($0, $1.handler, $1.queue) }
        for (line, bucket) in buckets.enumerated() {
            let y = inner.y + 3 + line
            Text.write(
                glyphs.atMost + context.duration(bucket.bound), in: &grid, x: inner.x, y: y, width: labelWidth,
                style: .dim, glyphs: glyphs, rightAligned: true)
            let handlerX = inner.x + labelWidth + 1
            grid.write(
                scalars: Array(repeating: glyphs.bar, count: Self.length(bucket.handler, peak: peak, width: barWidth)),
                x: handlerX, y: y, style: .graph)
            grid.write(
                scalars: Array(
                    repeating: glyphs.queueBar, count: Self.length(bucket.queue, peak: peak, width: barWidth)),
                x: handlerX + barWidth + 1, y: y, style: .queue)
        }
    }

    /// What the wait line says for a type whose queued recipients only get its subclasses' mail.
    static let ownPostsNone = "none for its own posts"

    /// The width of a summary line's label: glyph, space, `wait`, space.
    static let labelWidth = 6
    /// The widest duration: `1.5µs`, `120ms`, `2.25s`.
    static let valueWidth = 5

    /// One line of the summary table: the series' glyph and short name, then p50, p90, p99 and max right-aligned
    /// under their headings, or what it means that there is no data.
    private func summary(
        in grid: inout Grid, _ x: Int, _ y: Int, _ width: Int, glyph: Unicode.Scalar, style: Style, _ name: String,
        _ latency: LatencySummary, empty: String
    ) {
        grid.write(scalars: [glyph], x: x, y: y, style: style)
        var text = name.padding(Self.labelWidth - 2)
        if latency.count == 0 {
            text += " " + empty
        } else {
            text += [latency.p50, latency.p90, latency.p99, latency.max].map {
                context.duration($0).leftPadding(Self.valueWidth + 1)
            }.joined()
        }
        Text.write(text, in: &grid, x: x + 2, y: y, width: width - 2, style: .normal, glyphs: context.glyphs)
    }

    /// A bar's length on a log scale of counts, so that rare slow buckets stay visible next to busy fast ones.
    static func length(_ count: UInt64, peak: UInt64, width: Int) -> Int {
        guard count > 0, peak > 0 else { return 0 }
        let fraction = log(Double(count) + 1) / log(Double(peak) + 1)
        return max(1, Int((fraction * Double(width)).rounded()))
    }

    /// The buckets from the first to the last non-empty one of either series, merged pairwise until they fit.
    static func merge(
        handler: [LatencyBucket], queue: [LatencyBucket], rows: Int
    ) -> [(bound: UInt64, handler: UInt64, queue: UInt64)] {
        var byBound: [UInt64: (UInt64, UInt64)] = [:]
        for bucket in handler { byBound[bucket.upperBound, default: (0, 0)].0 += bucket.count }
        for bucket in queue { byBound[bucket.upperBound, default: (0, 0)].1 += bucket.count }
        var merged = byBound.sorted { $0.key < $1.key }.map { (bound: $0.key, handler: $0.value.0, queue: $0.value.1) }
        while let first = merged.first, first.handler == 0, first.queue == 0 { merged.removeFirst() }
        while let last = merged.last, last.handler == 0, last.queue == 0 { merged.removeLast() }
        while merged.count > max(1, rows) {
            merged = stride(from: 0, to: merged.count, by: 2).map { index in
                guard index + 1 < merged.count else { return merged[index] }
                let (low, high) = (merged[index], merged[index + 1])
                return (high.bound, low.handler + high.handler, low.queue + high.queue)
            }
        }
        return merged
    }
}
