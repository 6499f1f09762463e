/// What the header says about the source of the data: the running scenario, or (with ``title``) an attached app or
/// a replayed recording.
package struct SourceStatus: Equatable, Sendable {
    /// The scenario's name.
    package var name: String
    /// The current phase's name.
    package var phase: String
    /// The phase's position, from 0, and the number of phases.
    package var phaseIndex, phaseCount: Int
    /// Whether the scenario itself is paused (`P`).
    package var isPaused: Bool
    /// Whether every phase has run.
    package var isFinished: Bool
    /// What the header names instead of the scenario and phase: an attached app's process and pid, or a replay and
    /// its position.
    package var title: String?
    /// A warning the header shows until it goes away, such as a lost connection to the attached app.
    package var warning: String?
    /// A passing message, such as why a key does nothing here.
    package var notice: String?
    /// What `r` resets.
    package enum ResetScope: Sendable, Equatable {
        /// ponytop's own monitor: every count, histogram and finding.
        case everything
        /// An attached app's agent of protocol 1.6 or later: this viewer's findings only; the app's counters are
        /// every consumer's.
        case viewerFindings
        /// An attached app's agent before 1.6: the app's monitor, for every viewer and the app's metrics.
        case appForEveryViewer
        /// Nothing: a replay shows what was recorded. `r` asks no question and the source says why.
        case nothing
    }

    /// What `r` resets: the attached app's agent decides.
    package var resetScope = ResetScope.everything
    /// Whether a recording is playing back: the footer names the keys that move in it.
    package var isReplay = false
    /// Whether `--record` is writing what is shown: the header says `REC` while it does.
    package var isRecording = false

    /// Creates a status.
    package init(name: String, phase: String, phaseIndex: Int, phaseCount: Int, isPaused: Bool, isFinished: Bool) {
        self.name = name
        self.phase = phase
        self.phaseIndex = phaseIndex
        self.phaseCount = phaseCount
        self.isPaused = isPaused
        self.isFinished = isFinished
    }

    /// The status of a source other than a scenario.
    ///
    /// - Parameters:
    ///   - title: What the header names, such as `ponydemo pid 4242`.
    ///   - warning: A standing warning, such as `DISCONNECTED`.
    ///   - notice: A passing message.
    package init(title: String, warning: String? = nil, notice: String? = nil) {
        self.init(name: "", phase: "", phaseIndex: 0, phaseCount: 0, isPaused: false, isFinished: false)
        self.title = title
        self.warning = warning
        self.notice = notice
    }
}
