import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyTopUI

/// `--report`: runs a source without a terminal for a while (a replay: not at all) and summarises the snapshot it
/// ends with.
struct HeadlessRun {
    let source: any SnapshotSource
    /// Seconds to run; `nil` to judge the source's final snapshot at once (a replay's end).
    let duration: Double?
    let rate: Double
    let seed: UInt64

    /// Runs the source for ``duration`` seconds, refreshing as the live view would, so that `--record` records.
    ///
    /// - Returns: The report of the final snapshot.
    func run() -> Report {
        let start = MonotonicClock.now()
        source.start()
        if let duration {
            let end = start + UInt64(duration * 1e9)
            var nextRefresh = start + 500_000_000
            while MonotonicClock.now() < end {
                let now = MonotonicClock.now()
                if now >= nextRefresh {
                    source.refresh(recipientsOf: nil)
                    nextRefresh = now + 500_000_000
                }
                _ = source.poll()
                usleep(UInt32(min((end - min(end, MonotonicClock.now())) / 1000, 20_000)))
            }
        }
        let snapshot = source.finalSnapshot()
        let elapsed =
            duration == nil
            ? (source as? ReplaySource)?.recordedSeconds ?? 0 : Double(MonotonicClock.now() - start) / 1e9
        source.stop()
        return Report(
            snapshot: snapshot, source: source.reportSource, durationSeconds: elapsed, rate: rate, seed: seed)
    }
}
