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
    /// With `--report screen`: the size of the screen to draw at the run's end, and its characters.
    var screen: (size: ScreenSize, glyphs: GlyphSet)?

    /// What a run leaves: its report, and with ``screen`` the screen the live view would show at its end.
    struct Outcome {
        let report: Report
        /// The screen's text, one line per row, trailing blanks left out; `nil` without ``screen``.
        let screen: String?
    }

    /// Runs the source for ``duration`` seconds, refreshing every ``refreshInterval`` seconds as the live view
    /// would (so that `--record` records), and keeping the run's findings log. SIGINT or SIGTERM ends the run early: the report is then marked partial.
    ///
    /// - Returns: The report of the run, and its last screen when ``screen`` asks for it.
    func run() -> Outcome {
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
        if duration == nil, let replay = source as? ReplaySource {
            log = replay.findingLog()
            first = replay.firstSnapshot
        }
        let signal = SignalTrap.termination.load(ordering: .relaxed)
        let snapshot = source.finalSnapshot()
        let elapsed =
            duration == nil
            ? (source as? ReplaySource)?.recordedSeconds ?? 0 : Double(MonotonicClock.now() - start) / 1e9
        // Drawn as the live view draws its frames, from the same snapshot and findings log the report judges.
        let drawn = screen.map { screen in
            var state = AppState(refreshInterval: refreshInterval)
            (state.terminalWidth, state.terminalHeight) = (screen.size.width, screen.size.height)
            let grid = Renderer(glyphs: screen.glyphs).render(
                source.dashboard(for: state, log: log), state: state, width: screen.size.width,
                height: screen.size.height)
            return grid.text + "\n"
        }
        source.stop()
        let report = Report(
            snapshot: snapshot, log: log, first: first, source: Report.Source(source.origin),
            durationSeconds: elapsed, rate: rate, seed: seed,
            interruptedBy: signal == 0 ? nil : SignalTrap.name(of: signal))
        return Outcome(report: report, screen: drawn)
    }
}
