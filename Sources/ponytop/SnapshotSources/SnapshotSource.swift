import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyTopUI

/// Where ponytop's snapshots come from: a scenario it runs itself, an app it attached to, or a recording. The live
/// session and the headless report work the same on each.
protocol SnapshotSource: AnyObject {
    /// The latest snapshot.
    var snapshot: MonitorSnapshot { get }
    /// What the header says about the source.
    var status: SourceStatus { get }
    /// What it watches, as a report names it.
    var origin: SourceOrigin { get }

    /// Starts producing snapshots.
    func start()
    /// Takes (or asks for) a new snapshot, with the live recipients of `mailType`.
    func refresh(recipientsOf mailType: TypeIdentity?)
    /// Takes in what arrived since the last call, if anything; returns whether the display should change.
    func poll() -> Bool
    /// Keeps the source's connection when it has asked for nothing for a while (a paused display, a slow refresh):
    /// called on every turn of the loop, it sends something only when the source needs it.
    func keepAlive()
    /// Carries out a key's effect that concerns this source (pause a scenario, reset statistics, move in a replay);
    /// returns `false` for one that does not apply to it, which ``perform(_:)`` answers the same for every source.
    func carryOut(_ effect: Effect) -> Bool
    /// The passing message the header shows, such as why a key does nothing here.
    var notice: Notice { get set }
    /// The snapshot a report or `--fail-on` judges: a fresh one where the source can take one.
    func finalSnapshot() -> MonitorSnapshot
    /// Stops producing snapshots.
    func stop()
}

extension SnapshotSource {
    /// A source that runs in ponytop or reads a file has no connection to keep.
    func keepAlive() {}

    /// The mail types whose recipients the panes need to show `mailType`'s: its own and its superclasses', whose
    /// recipients receive its mail too.
    func recipientTypes(showing mailType: TypeIdentity?) -> [TypeIdentity] {
        guard let mailType else { return [] }
        return [mailType] + (snapshot.stats(of: mailType)?.superclasses ?? [])
    }

    /// Carries out a key's effect, or says in one line, the same words for every source, why it does not apply here.
    ///
    /// - Returns: Whether the source carried it out.
    @discardableResult
    func perform(_ effect: Effect) -> Bool {
        if carryOut(effect) { return true }
        if let purpose = effect.purpose { notice.show("\(purpose), not \(origin.kind.noun)") }
        return false
    }

    /// The dashboard of the latest snapshot as `state` shows it, with the findings of `log`.
    func dashboard(for state: AppState, log: FindingLog? = nil) -> Dashboard {
        Dashboard(snapshot: snapshot, status: status, state: state, log: log)
    }
}

/// What a source watches: a scenario by name, or an app (attached, or recorded and replayed) by process name and id.
struct SourceOrigin: Equatable {
    /// How the snapshots reach ponytop.
    enum Kind: Equatable {
        case scenario, attached, replay
    }

    var kind: Kind
    /// The scenario's name, or the process name of the app (or of the app a recording was made of).
    var name: String
    /// The app's process id; `nil` for a scenario.
    var pid: Int32?
}

extension SourceOrigin.Kind {
    /// The source, as a key that does not apply to it names it.
    var noun: String {
        switch self {
        case .scenario: "this scenario"
        case .attached: "an attached app"
        case .replay: "a replay"
        }
    }
}

/// A passing message in the header, gone after a few seconds.
struct Notice {
    private var text: String?
    private var until: UInt64 = 0

    mutating func show(_ text: String, seconds: Double = 3) {
        self.text = text
        until = MonotonicClock.now() + UInt64(seconds * 1e9)
    }

    var current: String? {
        MonotonicClock.now() < until ? text : nil
    }
}
