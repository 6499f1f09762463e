import Dispatch
import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct Ping: Mail {}

/// Issue 39's busy machine for the slow-recipient rule alone: busy loops at the test's priority (two, one per core;
/// `PONY_BUSY_LOOPS` sets another count) preempt the posting thread while its handlers run. A handler with 30 µs of
/// work is not slow however often that happens to a few of its runs; one with 3 ms of work is slow on a busy machine
/// as on a quiet one.
@Suite("slow recipients beside busy loops", .blocksItsThread)
struct SlowUnderLoadTests {
    /// What one run under load gave: the default judge's slow findings, and the healthy site's mean as a judge that
    /// reports every site reads it with the longest tenth of runs left out and with every run.
    private struct Judged {
        var findings: [Finding]
        var trimmedMean: Double?
        var everyRunMean: Double?
    }

    /// Posts Ping for `seconds` on this thread to a handler that spins `work` ns and to an empty one at another site.
    private static func run(work: UInt64, seconds: Double) throws -> Judged {
        let (office, monitor, _) = watchedOffice()
        office.register { (_: Ping) in spin(nanoseconds: work) }
        office.register { (_: Ping) in }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline { office.post(Ping()) }
        // One run, judged three ways: each judge its own rules over the same figures.
        func mean(leavingOut share: Double) throws -> Double? {
            var overrides = RuleOverrides()
            try overrides.set("slowRecipient.minimumMean", to: 0)
            try overrides.set("slowRecipient.share", to: 0.01)
            try overrides.set("slowRecipient.longestLeftOut", to: share)
            let judge = try monitor.makeJudge(overriding: overrides)
            let finding = monitor.snapshot(judgedBy: judge).findings(of: .slowRecipient).first
            return finding?.evidence(named: .meanHandlerTime)
        }
        return Judged(
            findings: monitor.snapshot().findings(of: .slowRecipient), trimmedMean: try mean(leavingOut: 0.1),
            everyRunMean: try mean(leavingOut: 0))
    }

    @Test(
        "30 µs of work is not slow and 3 ms is, beside two busy loops on the two cores",
        .skipped(under: .thread, .address, because: "a sanitizer's slowdown is a load of its own"))
    func busyLoopsDoNotMakeAHealthyHandlerSlow() async throws {
        let loops = Int(ProcessInfo.processInfo.environment["PONY_BUSY_LOOPS"] ?? "") ?? 2
        let (healthy, slow) = try await BlockingExecutor.withEveryOtherTurn {
            try await MachineLoad.alone {
                try MachineLoad.besideBusyLoops(loops) {
                    (try Self.run(work: 30_000, seconds: 3), try Self.run(work: 3_000_000, seconds: 0.5))
                }
            }
        }
        #expect(healthy.findings.isEmpty, "\(healthy.findings.map(\.explanation))")
        let trimmed = try #require(healthy.trimmedMean)
        #expect(trimmed >= 30_000 && trimmed < 100_000, "\(trimmed)")
        // What the preempted runs weigh when every run counts, for the record: how often the loops preempt the
        // poster depends on the machine, so it is printed, not judged.
        print(
            "slow-under-load: \(loops) busy loops, 30 µs handler: mean \(Int(trimmed)) ns with the longest tenth "
                + "left out, \(Int(healthy.everyRunMean ?? 0)) ns with every run")
        let finding = try #require(slow.findings.first, "a handler with 3 ms of work is slow on a busy machine")
        #expect((finding.evidence(named: .meanHandlerTime) ?? 0) >= 3_000_000)
    }
}
