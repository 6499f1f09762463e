import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyTopReport
import PonyTopUI

/// `--report`: runs a source without a terminal for a while (a replay: not at all) and reports the run: its final
/// snapshot, and every finding seen in the snapshots along the way.
struct HeadlessRun {
    let source: any SnapshotSource
    /// Seconds to run; `nil` to judge the source's final snapshot at once (a replay's end).
    let duration: Double?
    let rate: Double
    let seed: UInt64
    /// Seconds between snapshots (`--refresh`, else the config file's, else 0.5): what the findings log sees and
    /// `--record` writes.
    let refreshInterval: Double

    /// Runs the source for ``duration`` seconds, refreshing every ``refreshInterval`` seconds as the live view
    /// would (so that `--record` records), and keeping the run's findings log. SIGINT or SIGTERM ends the run early: the report is then marked partial.
    ///
    /// - Returns: The report of the run.
    func run() -> Report {
        SignalTrap.installTermination()
        let start = MonotonicClock.now()
        source.start()
        var log = FindingLog()
        var first: MonitorSnapshot?
        var recordedTime: Nanoseconds?
        /// Keeps the findings of a snapshot not seen yet.
        func record() {
            let snapshot = source.snapshot
            guard snapshot.time != recordedTime else { return }
            recordedTime = snapshot.time
            if first == nil { first = snapshot }
            log.record(snapshot)
        }
        if let duration {
            let end = start + UInt64(duration * 1e9)
            let interval = UInt64(refreshInterval * 1e9)
            var nextRefresh = start + interval
            while MonotonicClock.now() < end, SignalTrap.termination.load(ordering: .relaxed) == 0 {
                let now = MonotonicClock.now()
                if now >= nextRefresh {
                    source.refresh(recipientsOf: nil)
                    nextRefresh = now + interval
                }
                source.keepAlive()
                _ = source.poll()
                record()
                usleep(UInt32(min((end - min(end, MonotonicClock.now())) / 1000, 20_000)))
            }
        }
        if duration == nil, let replay = source as? ReplaySource { log = replay.findingLog() }
        let signal = SignalTrap.termination.load(ordering: .relaxed)
        let snapshot = source.finalSnapshot()
        let elapsed =
            duration == nil
            ? (source as? ReplaySource)?.recordedSeconds ?? 0 : Double(MonotonicClock.now() - start) / 1e9
        source.stop()
        return Report(
            snapshot: snapshot, log: log, first: first, source: source.reportSource,
            durationSeconds: elapsed, rate: rate, seed: seed,
            interruptedBy: signal == 0 ? nil : SignalTrap.name(of: signal))
    }
}
