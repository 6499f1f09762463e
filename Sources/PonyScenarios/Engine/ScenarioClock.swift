import Dispatch
import PonyExpress

/// Seconds since a run started, with paused time left out: every part of a run reads its time here, so that a
/// pause freezes phases, rates and recipient lifetimes alike.
final class ScenarioClock: Sendable {
    private struct State {
        var startedAt: UInt64?
        var pausedAt: UInt64?
        var pausedTotal: UInt64 = 0
    }

    private let state = Locked(State())

    /// Starts the clock; a clock paused before it starts stays at zero until resumed.
    func start() {
        let time = MonotonicClock.now()
        state.withLock { state in
            guard state.startedAt == nil else { return }
            state.startedAt = time
            if state.pausedAt != nil { state.pausedAt = time }
        }
    }

    /// Freezes the clock. Returns whether it was running.
    @discardableResult
    func pause() -> Bool {
        let time = MonotonicClock.now()
        return state.withLock { state in
            guard state.pausedAt == nil else { return false }
            state.pausedAt = time
            return true
        }
    }

    /// Lets the clock run again. Returns whether it was paused.
    @discardableResult
    func resume() -> Bool {
        let time = MonotonicClock.now()
        return state.withLock { state in
            guard let pausedAt = state.pausedAt else { return false }
            if state.startedAt != nil { state.pausedTotal += time &- pausedAt }
            state.pausedAt = nil
            return true
        }
    }

    /// Whether the clock is paused.
    var isPaused: Bool { state.withLock { $0.pausedAt != nil } }

    /// Seconds run so far, paused time excluded.
    func elapsed() -> Double {
        let time = MonotonicClock.now()
        return state.withLock { state in
            guard let startedAt = state.startedAt else { return 0 }
            let end = state.pausedAt ?? time
            return Double(end &- startedAt &- state.pausedTotal) / 1e9
        }
    }
}
