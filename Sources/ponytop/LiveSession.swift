import Dispatch
import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyTopUI

/// The interactive monitor: one thread reads keys, refreshes snapshots on time, draws and presents frames, and
/// notices signals. Every curses call happens here.
final class LiveSession {
    private let source: any SnapshotSource
    private let terminal: Terminal
    private var state: AppState
    private let renderer: Renderer
    private let stopAt: UInt64?
    private let crashAt: UInt64?
    /// Every finding seen since the session began or the statistics were reset: the findings pane keeps one that
    /// stopped holding, marked, and `--fail-on` judges them all.
    private(set) var findingLog = FindingLog()
    private var loggedTime: UInt64?

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - source: Where the snapshots come from.
    ///   - terminal: The open terminal.
    ///   - refreshInterval: Seconds between snapshots.
    ///   - duration: Quit by itself after this many seconds, if given.
    ///   - crashAfter: Crash on purpose after this many seconds, to test that the crash handler restores the
    ///     terminal (the hidden `--crash-after-for-testing` option).
    init(
        source: any SnapshotSource, terminal: Terminal, refreshInterval: Double, duration: Double?,
        crashAfter: Double?
    ) {
        self.source = source
        self.terminal = terminal
        state = AppState(refreshInterval: refreshInterval)
        renderer = Renderer(glyphs: terminal.glyphs)
        stopAt = duration.map { MonotonicClock.now() + UInt64($0 * 1e9) }
        crashAt = crashAfter.map { MonotonicClock.now() + UInt64($0 * 1e9) }
    }

    /// Runs until `q`, the duration, or a terminating signal.
    ///
    /// - Returns: The signal that ended the session, or `nil` when it ended normally.
    func run() -> Int32? {
        source.start()
        var nextRefresh = MonotonicClock.now()
        var needsDraw = true
        recordFindings()
        var dashboard = source.dashboard(for: state, log: findingLog)
        while true {
            let signal = SignalTrap.termination.load(ordering: .relaxed)
            if signal != 0 { return signal }
            if let stopAt, MonotonicClock.now() >= stopAt { return nil }
            if let crashAt, MonotonicClock.now() >= crashAt {
                fatalError("crash requested with --crash-after-for-testing")
            }
            if SignalTrap.suspendRequested.load(ordering: .relaxed) {
                terminal.suspend()
                needsDraw = true
            }
            if SignalTrap.continued.exchange(false, ordering: .relaxed) { needsDraw = true }
            if SignalTrap.resized.exchange(false, ordering: .relaxed) {
                terminal.adoptNewSize()
                needsDraw = true
            }
            let now = MonotonicClock.now()
            if now >= nextRefresh {
                if !state.isDisplayPaused { source.refresh(recipientsOf: dashboard.sitesMailType) }
                nextRefresh = now + UInt64(state.refreshInterval * 1e9)
                needsDraw = true
            }
            source.keepAlive()
            if source.poll(), !state.isDisplayPaused { needsDraw = true }
            if needsDraw {
                recordFindings()
                dashboard = source.dashboard(for: state, log: findingLog)
                (state.terminalWidth, state.terminalHeight) = terminal.size
                // The frame's layout stays in the state: the next key acts on what this frame shows.
                terminal.present(state.draw(dashboard, with: renderer))
                needsDraw = false
            }
            let wait = (nextRefresh - min(nextRefresh, MonotonicClock.now())) / 1_000_000
            terminal.setKeyTimeout(milliseconds: Int(min(100, max(1, wait))))
            guard let key = terminal.readKey() else { continue }
            let previousInterval = state.refreshInterval
            let effect = state.handle(key, dashboard: dashboard)
            switch effect {
            case .none: break
            case .quit: return nil
            case .replayStep:
                // Stepping pauses a replay where it lands; elsewhere the source only says the key does not apply.
                if source is ReplaySource { state.isDisplayPaused = true }
                source.perform(effect)
                followReplay()
            case .resetStatistics:
                // A replay shows what was recorded: its findings stay.
                if source.perform(effect) { findingLog.removeAll() }
            default:
                // Every other key's effect is the source's: it carries it out, or says it does not apply.
                source.perform(effect)
                followReplay()
            }
            if state.refreshInterval != previousInterval {
                nextRefresh = MonotonicClock.now() + UInt64(state.refreshInterval * 1e9)
            }
            needsDraw = true
        }
    }

    /// Keeps the log on the snapshot a replay stepped or jumped to, paused or not: forward, its findings are added as
    /// if played to it; back, the log is made again up to it. (Paused, a step showed the snapshot but the findings of
    /// where the replay was paused: none, stepping a leaky recording from its start.)
    private func followReplay() {
        guard let replay = source as? ReplaySource else { return }
        let snapshot = replay.snapshot
        if let loggedTime, snapshot.time < loggedTime {
            findingLog = replay.findingLogToShown()
        } else if snapshot.time != loggedTime {
            findingLog.record(snapshot)
        }
        loggedTime = snapshot.time
    }

    /// Adds the latest snapshot's findings to the log, once per snapshot; a paused display adds none.
    private func recordFindings() {
        let snapshot = source.snapshot
        guard !state.isDisplayPaused, snapshot.time != loggedTime else { return }
        loggedTime = snapshot.time
        findingLog.record(snapshot)
    }
}
