import Foundation

/// One workload timed on every bus.
struct Row {
    let workload: String
    let floor: Double
    let lockedDictionary: Double
    let notificationCenter: Double
    /// Foundation's `MainActorMessage`; `nil` where it cannot run the workload (posts from other threads).
    let mainActorMessage: Double?
    /// Foundation's `AsyncMessage`, post and delivery together.
    let asyncMessage: Double?
    let ponyExpress: Double
}

/// A PonyExpress overhead: a post with something attached, and the same post without it, timed alongside.
struct ExtraRow {
    let name: String
    let nanoseconds: Double
    /// The same post on a post office with nothing attached, timed in batches alternating with this one.
    let bare: Double
    /// The most `nanoseconds / bare` may be, when the issue sets a target for it.
    let limit: Double?
}

/// One workload in the generic shape: an adapter generic over `M: Mail` posting `Envelope<M>`, on every bus.
struct GenericRow {
    let workload: String
    let compilation: GenericShape.Compilation
    let floor: Double
    let lockedDictionary: Double
    let notificationCenter: Double
    let ponyExpress: Double
    /// A post office with a monitor attached at default settings and a bare one, timed in alternating batches;
    /// `nil` for registrations.
    let monitored: (bare: Double, monitored: Double)?
}

/// The table and the target verdicts, as Markdown for README.md.
struct BenchmarkTable {
    /// The name of the extra row of a post with a counting tap attached.
    static let countingTap = "post to 1, a counting tap attached"

    private(set) var rows: [Row] = []
    private(set) var extras: [ExtraRow] = []
    private(set) var genericRows: [GenericRow] = []

    mutating func add(_ row: Row) { rows.append(row) }

    mutating func add(_ row: GenericRow) { genericRows.append(row) }

    mutating func addExtra(name: String, nanoseconds: Double, bare: Double, limit: Double? = nil) {
        extras.append(ExtraRow(name: name, nanoseconds: nanoseconds, bare: bare, limit: limit))
    }

    func row(_ workload: String) -> Row? { rows.first { $0.workload == workload } }

    func table() -> String {
        var lines = [
            "| workload | floor | lock + dictionary | NotificationCenter | MainActorMessage | AsyncMessage (delivered) "
                + "| PonyExpress | PonyExpress / floor |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            lines.append(
                "| \(row.workload) | \(ns(row.floor)) | \(ns(row.lockedDictionary)) | \(ns(row.notificationCenter)) "
                    + "| \(row.mainActorMessage.map(ns) ?? "-") | \(row.asyncMessage.map(ns) ?? "-") "
                    + "| \(ns(row.ponyExpress)) | \(ratio(row.ponyExpress / row.floor)) |")
        }
        if !extras.isEmpty {
            lines.append("")
            lines.append("| PonyExpress with | ns/op | without, timed alongside | ratio |")
            lines.append("|---|---:|---:|---:|")
            for extra in extras {
                lines.append(
                    "| \(extra.name) | \(ns(extra.nanoseconds)) | \(ns(extra.bare)) | "
                        + "\(ratio(extra.nanoseconds / extra.bare)) |")
            }
        }
        if !genericRows.isEmpty {
            lines.append("")
            lines.append(
                "| generic shape: `Envelope<M>` | compiled | floor | lock + dictionary | NotificationCenter "
                    + "| PonyExpress | monitor attached (bare, timed alongside) |")
            lines.append("|---|---|---:|---:|---:|---:|---:|")
            for row in genericRows {
                let versus =
                    row.workload.hasPrefix("register")
                    ? "\(ratio(row.ponyExpress / row.lockedDictionary)) lock + dictionary"
                    : "\(ratio(row.ponyExpress / row.floor)) floor, "
                        + "\(ratio(row.notificationCenter / row.ponyExpress)) faster than NC"
                let monitored = row.monitored.map {
                    "\(ns($0.monitored)) (\(ns($0.bare)), \(ratio($0.monitored / $0.bare)) bare)"
                }
                lines.append(
                    "| \(row.workload) | \(row.compilation) | \(ns(row.floor)) | \(ns(row.lockedDictionary)) "
                        + "| \(ns(row.notificationCenter)) "
                        + "| \(ns(row.ponyExpress)) (\(versus)) | \(monitored ?? "") |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The issue's targets, one row each in the issue's order, as ratios of figures timed in this run; then the same
    /// targets on the other shapes of those workloads (an object's method, the generic shape); then ponybench's own
    /// checks, which are not the issue's.
    func targets() -> String {
        var issue = Verdicts(title: "The issue's targets, as ratios measured in this run:")
        var shapes = Verdicts(title: "The same targets on other shapes of those workloads (not rows of the issue):")
        var own = Verdicts(title: "ponybench's own checks (not the issue's targets):")
        let one = row("post to 1 recipient")
        if let one {
            issue.atMost("post to 1: PonyExpress / floor", one.ponyExpress / one.floor, 2.0, "the floor")
            issue.atLeast(
                "post to 1: NotificationCenter / PonyExpress", one.notificationCenter / one.ponyExpress, 25)
        }
        if let hundred = row("post to 100 recipients") {
            issue.atMost("post to 100: PonyExpress / floor", hundred.ponyExpress / hundred.floor, 2.0, "the floor")
        }
        if let measured = row("register + unregister") {
            issue.registration(
                "register + unregister", measured.ponyExpress, naive: measured.lockedDictionary,
                notificationCenter: measured.notificationCenter)
        }
        for extra in extras {
            guard let limit = extra.limit else { continue }
            issue.atMost("\(extra.name) / bare", extra.nanoseconds / extra.bare, limit, "bare")
        }
        if let one, let many = row("post to 1, 10,000 other types registered") {
            issue.atMost(
                "post to 1, 10,000 other types registered / post to 1", many.ponyExpress / one.ponyExpress, 1.2,
                "its post to 1")
        }

        if let measured = row("register + unregister, an object's method") {
            shapes.registration(
                "register + unregister, an object's method", measured.ponyExpress, naive: measured.lockedDictionary,
                notificationCenter: measured.notificationCenter)
        }
        // The generic shape as an app compiles it; the never-specialized rows are the worst case, shown in the table.
        for row in genericRows where row.compilation == .asAnApp {
            let name = "generic shape, \(row.workload)"
            if row.workload.hasPrefix("register") {
                shapes.registration(
                    name, row.ponyExpress, naive: row.lockedDictionary, notificationCenter: row.notificationCenter)
                continue
            }
            let toOne = row.workload == "post to 1 recipient"
            shapes.atMost("\(name): PonyExpress / floor", row.ponyExpress / row.floor, 2.0, "the floor")
            if toOne {
                shapes.atLeast(
                    "\(name): NotificationCenter / PonyExpress", row.notificationCenter / row.ponyExpress, 25)
            }
            if let monitored = row.monitored {
                shapes.atMost(
                    "\(name), the monitor attached / bare", monitored.monitored / monitored.bare, toOne ? 1.3 : 1.1,
                    "bare")
            }
        }

        if let one {
            own.atMost("post to 1: PonyExpress / naive", one.ponyExpress / one.lockedDictionary, 1.0, "naive")
            if let both = row("2 threads posting at once") {
                own.atMost(
                    "2 threads posting at once / one thread's post to 1", both.ponyExpress / one.ponyExpress, 1.5,
                    "one thread's post")
            }
        }
        if let tap = extras.first(where: { $0.name == Self.countingTap }) {
            own.atMost("\(tap.name) / bare", tap.nanoseconds / tap.bare, 2.0, "bare")
        }
        return [issue, shapes, own].map(\.text).joined(separator: "\n")
    }

    private func ns(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    private func ratio(_ value: Double) -> String {
        Verdicts.ratio(value)
    }
}
