import ArgumentParser
import CHeapStats
import Dispatch
import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyScenarios

/// A long run of the `app` scenario with the monitor attached, checking what only a long run shows: resident
/// memory stays flat after warm-up, the recipient table holds no more than the scenario keeps alive, and no
/// delivery is lost (every recipient a post matched was delivered to, skipped or pruned). Exits non-zero when a
/// check fails, so CI can run a short one.
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the app scenario with the monitor attached; check memory, the recipient table and deliveries.",
        discussion: """
            Heap in use (the C allocator's bytes handed out and not freed, over every arena) and resident memory \
            (/proc/self/statm) are sampled. The run fails when heap in use grew by more than the tolerance: the \
            least of the samples in the last fifth of the run against the least in the first fifth after warm-up, \
            so that a queue backlog at one sample is not a leak while a leak, which raises every sample, is. \
            Resident memory is reported, not judged: it also grows when a new thread gets an arena or freed pages \
            stay mapped. Every post and \
            delivery is counted by a tap, and after the scenario stops and its queues drain, the sum of the \
            recipients each post matched must equal deliveries + skips + prunes.
            """)

    @Option(help: "How long to run the scenario, in seconds.")
    var seconds = 600.0

    @Option(help: "A factor for every posting rate of the app scenario (1 is about 1,500 posts/s).")
    var rate = 50.0

    @Option(help: "Seconds between resident-memory samples.")
    var sampleEvery = 5.0

    @Option(help: "Seconds of warm-up before the memory baseline (default: a fifth of the run, at most 120).")
    var warmUp: Double?

    @Option(help: "How much heap in use may grow after the warm-up, in MiB.")
    var toleranceMib = 8.0

    func validate() throws {
        func check(_ value: Double, _ name: String, _ valid: ClosedRange<Double>) throws {
            guard value.isFinite, valid.contains(value) else {
                throw ValidationError(
                    "--\(name) must be a number in \(valid.lowerBound)...\(valid.upperBound); found \(value)")
            }
        }
        try check(seconds, "seconds", 1...86_400)
        try check(rate, "rate", 0.01...1_000_000)
        try check(sampleEvery, "sample-every", 0.1...3_600)
        try check(toleranceMib, "tolerance-mib", 0...65_536)
        if let warmUp { try check(warmUp, "warm-up", 0...(seconds - sampleEvery)) }
    }

    mutating func run() throws {
        DebugBuild.warn("ponybench soak")
        guard let scenario = Scenario.builtin(named: "app") else { throw ValidationError("no built-in app scenario") }
        let warmUp = self.warmUp ?? min(120, seconds / 5)
        // Every group of `app` ends its recipients' lives by unregistering before it registers the replacement,
        // so this is the most the scenario ever keeps alive at once.
        let keptAlive = scenario.recipients.reduce(0) { $0 + $1.count * $1.mail.count }

        let office = PostOffice()
        let accounting = AccountingTap()
        office.attach(accounting)
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        let runner = ScenarioRunner(scenario: scenario, office: office, rate: rate, seed: 1)

        print("soak: app scenario at rate x\(rate) for \(seconds) s, monitor attached, warm-up \(warmUp) s")
        print("| time (s) | heap in use (MiB) | RSS (MiB) | monitor estimate (KiB) | recipients | posts | deliveries |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        let started = MonotonicClock.now()
        func elapsed() -> Double { Double(MonotonicClock.now() - started) / 1e9 }
        runner.start()
        var samples: [MemorySample] = []
        var mostRecipients = 0
        var nextSample = 0.0
        while true {
            let now = elapsed()
            if now >= nextSample || now >= seconds {
                let sample = MemorySample(
                    time: now, heapBytes: Int(pony_heap_bytes_in_use()), residentBytes: ResidentMemory.bytes() ?? 0,
                    recipients: office.recipientCount)
                samples.append(sample)
                mostRecipients = max(mostRecipients, sample.recipients)
                print(
                    "| \(Int(now.rounded())) | \(mebibytes(sample.heapBytes)) | \(mebibytes(sample.residentBytes)) "
                        + "| \(monitor.estimatedMemoryBytes / 1_024) | \(sample.recipients) "
                        + "| \(accounting.posts.load(ordering: .relaxed)) "
                        + "| \(accounting.delivered.load(ordering: .relaxed)) |")
                fflush(nil)
                nextSample += sampleEvery
            }
            if now >= seconds { break }
            // What a live display does: a snapshot twice a second.
            _ = monitor.snapshot()
            Thread.sleep(forTimeInterval: min(0.5, max(0.01, min(nextSample, seconds) - elapsed())))
        }
        runner.stop()
        let posted = runner.progress.posted
        // After stop the runner's registrations are gone; deliveries still queued are skipped as they drain.
        let drained = waitForAccounting(accounting, timeout: 30)
        let snapshot = monitor.snapshot()
        monitor.detach()
        let recipientsAfterStop = office.recipientCount
        let deadAfterStop = office.prune()

        var checks = SoakChecks()
        // Never empty: the last sample is taken at the end of the run, after any warm-up `validate()` accepts.
        let afterWarmUp = samples.filter { $0.time >= warmUp }
        let window = max(1, afterWarmUp.count / 5)
        let first = afterWarmUp.prefix(window)
        let last = afterWarmUp.suffix(window)
        let heapBaseline = first.map(\.heapBytes).min() ?? 0
        let heapEnd = last.map(\.heapBytes).min() ?? 0
        let growth = heapEnd - heapBaseline
        let start = samples[0]
        let end = samples[samples.count - 1]
        print("")
        print(
            "heap in use: \(mebibytes(start.heapBytes)) MiB at start, least \(mebibytes(heapBaseline)) MiB in the first fifth after warm-up (\(Int(warmUp)) s), least \(mebibytes(heapEnd)) MiB in the last fifth; trend \(String(format: "%+.3f", slope(afterWarmUp, \.heapBytes) * 60 / 1_048_576)) MiB/min"
        )
        print(
            "resident memory (reported, not judged): \(mebibytes(start.residentBytes)) MiB at start, \(mebibytes(afterWarmUp[0].residentBytes)) MiB after warm-up, \(mebibytes(end.residentBytes)) MiB at the end (\(Int(end.time)) s); highest after warm-up \(mebibytes(afterWarmUp.map(\.residentBytes).max() ?? 0)) MiB; trend \(String(format: "%+.3f", slope(afterWarmUp, \.residentBytes) * 60 / 1_048_576)) MiB/min"
        )
        checks.expect(
            heapBaseline > 0 && Double(growth) <= toleranceMib * 1_048_576,
            heapBaseline > 0
                ? "memory flat: heap in use grew \(mebibytes(growth)) MiB after warm-up (tolerance \(toleranceMib) MiB)"
                : "memory flat: this C library does not report heap in use (glibc 2.33 or later does)")
        checks.expect(
            mostRecipients <= keptAlive,
            "recipient table: at most \(mostRecipients) live registrations seen, the scenario keeps \(keptAlive)")
        checks.expect(
            recipientsAfterStop == 0 && deadAfterStop == 0,
            "recipient table after stop: \(recipientsAfterStop) live, \(deadAfterStop) dead left to prune (want 0, 0)")
        let matched = accounting.matched.load(ordering: .relaxed)
        checks.expect(
            drained && matched == accounting.accounted,
            "accounting: posted x matching recipients = \(matched); delivered \(accounting.delivered.load(ordering: .relaxed)) + skipped \(accounting.skipped) (sender \(accounting.skippedSenderMismatch.load(ordering: .relaxed)), unregistered \(accounting.skippedUnregistered.load(ordering: .relaxed))) + pruned \(accounting.pruned) = \(accounting.accounted)"
        )
        let tapPosts = UInt64(accounting.posts.load(ordering: .relaxed))
        checks.expect(posted == tapPosts, "posts: the runner made \(posted), the tap saw \(tapPosts)")
        checks.expect(
            snapshot.totals.posts == tapPosts
                && snapshot.totals.deliveries == UInt64(accounting.delivered.load(ordering: .relaxed)),
            "monitor totals: \(snapshot.totals.posts) posts, \(snapshot.totals.deliveries) deliveries, as the tap counted"
        )
        let runSeconds = end.time
        print(
            "throughput: \(Int(Double(tapPosts) / runSeconds)) posts/s, "
                + "\(Int(Double(accounting.delivered.load(ordering: .relaxed)) / runSeconds)) deliveries/s")
        print(checks.report())
        if !checks.passed { throw ExitCode.failure }
    }

    /// Waits until every matched recipient is accounted for, or for `timeout` seconds.
    private func waitForAccounting(_ accounting: AccountingTap, timeout: Double) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(timeout * 1e9)
        while MonotonicClock.now() < deadline {
            if accounting.accounted == accounting.matched.load(ordering: .relaxed) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    private func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_048_576)
    }

    /// The least-squares slope of one byte count over time, in bytes per second.
    private func slope(_ samples: [MemorySample], _ bytes: KeyPath<MemorySample, Int>) -> Double {
        guard samples.count >= 2 else { return 0 }
        let count = Double(samples.count)
        let meanTime = samples.reduce(0) { $0 + $1.time } / count
        let meanBytes = samples.reduce(0) { $0 + Double($1[keyPath: bytes]) } / count
        let covariance = samples.reduce(0) { $0 + ($1.time - meanTime) * (Double($1[keyPath: bytes]) - meanBytes) }
        let variance = samples.reduce(0) { $0 + ($1.time - meanTime) * ($1.time - meanTime) }
        return variance > 0 ? covariance / variance : 0
    }
}

/// One sample of the soak: when, how much heap was in use and memory resident, and how many recipients were live.
private struct MemorySample {
    let time: Double
    let heapBytes: Int
    let residentBytes: Int
    let recipients: Int
}

/// The soak's pass/fail lines.
private struct SoakChecks {
    private var lines: [String] = []
    private(set) var passed = true

    mutating func expect(_ condition: Bool, _ line: String) {
        lines.append("\(condition ? "PASS" : "FAIL")  \(line)")
        if !condition { passed = false }
    }

    func report() -> String {
        (lines + ["soak: \(passed ? "all checks passed" : "FAILED")"]).joined(separator: "\n")
    }
}
