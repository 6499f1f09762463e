import ArgumentParser
import Foundation
import PonyExpress
import PonyExpressMonitor
import Synchronization

/// Issue 39's run: screens registered weakly for a mail type that is never posted, each released without
/// unregistering. Before the register-time sweep the post office kept every dead registration (342 bytes a screen,
/// 887 with the agent) and the monitor counted them alive; before each snapshot checked some registrations, the
/// monitor counted the up to 1,000 released ones the sweep leaves.
struct ReleasedScreens: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "released-screens",
        abstract:
            "Register screens for a never-posted type and release them without unregistering; resident memory before and after, with and without the monitor."
    )

    @Option(help: "How many screens in all.")
    var count = 200_000

    @Option(help: "Screens alive at once: each batch is released before the next registers.")
    var batch = 1_000

    @Option(help: "Which runs: both, without or with the monitor (one per process compares resident memory cleanly).")
    var runs = "both"

    /// Never posted: its registrations are reclaimed only by the sweep that `register` runs.
    struct LogoutEvent: Mail {}

    final class Screen: Sendable {
        func logout(_: LogoutEvent) {}
    }

    mutating func run() throws {
        guard count > 0, batch > 0 else { throw ValidationError("--count and --batch must be above 0") }
        let monitored: [Bool]
        switch runs {
        case "both": monitored = [false, true]
        case "without": monitored = [false]
        case "with": monitored = [true]
        default: throw ValidationError("--runs: expected both, without or with, got '\(runs)'")
        }
        DebugBuild.warn("ponybench released-screens")
        print(
            "\(count) screens, \(batch) at a time, registered for a mail type never posted, released without unregistering\n"
        )
        print(
            "| run | RSS before MB | peak MB | after MB | bytes a screen kept | post office holds | monitor counts alive |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for monitored in monitored { print(measure(monitored: monitored)) }
        checkCost()
    }

    /// What a snapshot's check for released recipients costs the app: the post office's lock is held while it checks
    /// 1,024 registrations, against counting every live recipient of 100,000 under the lock, which the monitor's live
    /// counts would otherwise need.
    private func checkCost() {
        let office = PostOffice()
        let screens = (0..<100_000).map { _ in Screen() }
        for screen in screens { office.register(screen, Screen.logout) }
        let (step, whole) = Stopwatch.nanosecondsPerOperation(
            batchSeconds: 0.2, samples: 5,
            alternating: { count in for _ in 0..<count { office.prune(checking: 1_024) } },
            with: { count in for _ in 0..<count { _ = office.recipientCount } })
        let each = Stopwatch.eachOperation(1_000) { _ in office.prune(checking: 1_024) }
        withExtendedLifetime(screens) {}
        // The same check where every registration it meets was released: it prunes them too, and the removal takes
        // the lock again for one pass over the bucket. 50 checks take 51,200 of 100,000 released screens.
        let deadOffice = PostOffice()
        do {
            let released = (0..<100_000).map { _ in Screen() }
            for screen in released { deadOffice.register(screen, Screen.logout) }
        }
        let pruning = Stopwatch.eachOperation(50) { _ in deadOffice.prune(checking: 1_024) }
        print(
            "\nA snapshot's check for released recipients, 1,024 under the lock at a time (10,240 a second at most): "
                + "prune(checking: 1_024) among 100,000 live recipients\n"
        )
        print("| check | µs (best batch) | median µs | p99 µs | vs counting all 100,000 under the lock |")
        print("|---|---:|---:|---:|---:|")
        print(
            "| 1,024 registrations | \(micro(step)) | \(micro(each.median)) | \(micro(each.p99)) | "
                + "\(String(format: "%.4f", step / whole)) (all: \(String(format: "%.1f", whole / 1e6)) ms) |")
        print(
            "| 1,024 registrations, all released, pruned | - | \(micro(pruning.median)) | \(micro(pruning.p99)) | "
                + "\(String(format: "%.4f", pruning.median / whole)) |")
    }

    private func micro(_ nanoseconds: Double) -> String {
        String(format: "%.1f", nanoseconds / 1_000)
    }

    private func measure(monitored: Bool) -> String {
        let office = PostOffice()
        // What the post office holds, live or not: registered minus removed, as its taps hear it.
        let held = Atomic<Int>(0)
        office.attach(
            ClosureTap { event in
                switch event {
                case .registered: held.add(1, ordering: .relaxed)
                case .unregistered, .pruned: held.subtract(1, ordering: .relaxed)
                default: break
                }
            })
        let monitor = monitored ? PostOfficeMonitor() : nil
        monitor?.attach(to: office)
        defer { monitor?.detach() }
        // One screen that stays: the type's table exists before the first reading.
        let kept = Screen()
        office.register(kept, Screen.logout)
        let before = ResidentMemory.bytes() ?? 0
        var peak = before
        var made = 0
        while made < count {
            let screens = (0..<min(batch, count - made)).map { _ in Screen() }
            for screen in screens { office.register(screen, Screen.logout) }
            made += screens.count
            peak = max(peak, ResidentMemory.bytes() ?? 0)
        }
        let after = ResidentMemory.bytes() ?? 0
        let alive = monitor.map { String($0.snapshot().totals.recipientsAlive) } ?? "-"
        withExtendedLifetime(kept) {}
        let perScreen = Double(after - before) / Double(count)
        return "| \(monitored ? "monitor attached" : "no monitor") | \(mebibytes(before)) | \(mebibytes(peak)) | "
            + "\(mebibytes(after)) | \(Int(perScreen.rounded())) | \(held.load(ordering: .relaxed)) | \(alive) |"
    }

    private func mebibytes(_ bytes: Int) -> String {
        String(Int((Double(bytes) / 1_048_576).rounded()))
    }
}
