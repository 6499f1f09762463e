import Foundation

/// One table of targets: for each, the ratio measured, the target it is held to, and whether it was met.
struct Verdicts {
    private struct Verdict {
        let workload: String
        let measured: String
        let target: String
        let met: Bool
    }

    let title: String
    private var verdicts: [Verdict] = []

    init(title: String) { self.title = title }

    /// `measured` may be at most `limit` times `what`.
    mutating func atMost(_ workload: String, _ measured: Double, _ limit: Double, _ what: String) {
        verdicts.append(
            Verdict(
                workload: workload, measured: Self.ratio(measured), target: "≤ \(Self.ratio(limit)) \(what)",
                met: measured <= limit))
    }

    /// `measured` must be at least `least`.
    mutating func atLeast(_ workload: String, _ measured: Double, _ least: Double) {
        verdicts.append(
            Verdict(
                workload: workload, measured: Self.ratio(measured), target: "≥ \(Self.ratio(least))",
                met: measured >= least))
    }

    /// A registration and unregistration: at most 0.9x the naive bus's and at most 0.33x NotificationCenter's, both
    /// held to in one row.
    mutating func registration(_ workload: String, _ ponyExpress: Double, naive: Double, notificationCenter: Double) {
        let toNaive = ponyExpress / naive
        let toCenter = ponyExpress / notificationCenter
        verdicts.append(
            Verdict(
                workload: "\(workload): PonyExpress / naive, / NotificationCenter",
                measured: "\(Self.ratio(toNaive)), \(Self.ratio(toCenter))",
                target: "≤ 0.90x naive, ≤ 0.33x NotificationCenter", met: toNaive <= 0.9 && toCenter <= 0.33))
    }

    /// The title and a Markdown table, or nothing when there is no verdict.
    var text: String {
        guard !verdicts.isEmpty else { return "" }
        var lines = [title, "", "| workload | measured | target | met |", "|---|---:|---|:---:|"]
        for verdict in verdicts {
            lines.append(
                "| \(verdict.workload) | \(verdict.measured) | \(verdict.target) | \(verdict.met ? "yes" : "no") |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2fx", value)
    }
}
