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
    /// The most `nanoseconds / bare` may be, when there is a target.
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

    func targets() -> String {
        var lines = ["| target | measured | met |", "|---|---:|:---:|"]
        func check(_ name: String, _ value: Double, _ met: Bool) {
            lines.append("| \(name) | \(ratio(value)) | \(met ? "yes" : "NO") |")
        }
        if let one = row("post to 1 recipient") {
            check(
                "post to 1: within 2.5x of the floor", one.ponyExpress / one.floor, one.ponyExpress <= 2.5 * one.floor)
            check(
                "post to 1: faster than lock + dictionary", one.ponyExpress / one.lockedDictionary,
                one.ponyExpress < one.lockedDictionary)
            check(
                "post to 1: at least 20x faster than NotificationCenter", one.notificationCenter / one.ponyExpress,
                one.notificationCenter >= 20 * one.ponyExpress)
            if let many = row("post to 1, 10,000 other types registered") {
                check(
                    "10,000 other types: within 1.2x of post to 1", many.ponyExpress / one.ponyExpress,
                    many.ponyExpress <= 1.2 * one.ponyExpress)
            }
            if let both = row("2 threads posting at once") {
                check(
                    "2 threads posting at once: at most 1.5x one thread's post to 1",
                    both.ponyExpress / one.ponyExpress, both.ponyExpress <= 1.5 * one.ponyExpress)
            }
        }
        if let hundred = row("post to 100 recipients") {
            check(
                "post to 100: within 3x of the floor", hundred.ponyExpress / hundred.floor,
                hundred.ponyExpress <= 3 * hundred.floor)
        }
        for name in ["register + unregister", "register + unregister, an object's method"] {
            guard let measured = row(name) else { continue }
            check(
                "\(name): at most lock + dictionary", measured.ponyExpress / measured.lockedDictionary,
                measured.ponyExpress <= measured.lockedDictionary)
            check(
                "\(name): under 1/3 of NotificationCenter's", measured.ponyExpress / measured.notificationCenter,
                3 * measured.ponyExpress < measured.notificationCenter)
        }
        // The targets judge the generic shape as an app compiles it; the never-specialized rows are the worst case,
        // shown in the table.
        for row in genericRows where row.compilation == .asAnApp {
            let name = "generic shape, \(row.workload)"
            if row.workload.hasPrefix("register") {
                check(
                    "\(name): at most lock + dictionary", row.ponyExpress / row.lockedDictionary,
                    row.ponyExpress <= row.lockedDictionary)
                continue
            }
            if row.workload == "post to 1 recipient" {
                check(
                    "\(name): within 2.5x of the floor", row.ponyExpress / row.floor, row.ponyExpress <= 2.5 * row.floor
                )
                check(
                    "\(name): at least 20x faster than NotificationCenter", row.notificationCenter / row.ponyExpress,
                    row.notificationCenter >= 20 * row.ponyExpress)
            }
            if let monitored = row.monitored {
                let limit = row.workload == "post to 1 recipient" ? 2.0 : 1.5
                check(
                    "\(name), the monitor attached: at most \(limit)x bare", monitored.monitored / monitored.bare,
                    monitored.monitored <= limit * monitored.bare)
            }
        }
        for extra in extras {
            guard let limit = extra.limit else { continue }
            check(
                "\(extra.name): at most \(limit)x", extra.nanoseconds / extra.bare,
                extra.nanoseconds <= limit * extra.bare)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func ns(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    private func ratio(_ value: Double) -> String {
        String(format: "%.2fx", value)
    }
}
