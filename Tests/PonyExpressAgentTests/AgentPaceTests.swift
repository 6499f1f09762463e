import Dispatch
import NIOCore
import NIOPosix
import PonyExpress
import PonyExpressWire
import PonyTestSupport
import Synchronization
import Testing

@testable import PonyExpressAgent

/// What a viewer's snapshots may take from the app: the agent's own thread, a pace per viewer, a share of a core for
/// all (``MonitorAgent/Limits``; issue 36).
@Suite("the agent's pace", .blocksItsThread, .serialized, .tags(.concurrency))
struct AgentPaceTests {
    @Test("the agent serves on a thread of its own: NIO's shared event loops, all held by the app, do not stop it")
    func servesWhileTheSharedLoopsAreHeld() throws {
        let agent = try MonitorAgent.start(watching: PostOffice(), runtimeDirectory: temporaryRuntimeDirectory())
        defer { agent.stop() }
        let peer = try #require(RawPeer(path: agent.socketPath))
        #expect(peer.readFrame()?.first == Frame.Kind.hello.rawValue)
        // The app's own server (Hummingbird, Vapor) runs on the shared loops: hold every one of them, for 3 s at
        // most, as other suites beside this one use them too (the snapshot arrives in milliseconds).
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        let held = Atomic<Int>(0)
        let letGo = Atomic<Int>(0)
        let release = DispatchSemaphore(value: 0)
        for loop in loops {
            loop.execute {
                held.add(1, ordering: .relaxed)
                _ = release.wait(timeout: .now() + 3)
                letGo.add(1, ordering: .relaxed)
            }
        }
        defer { for _ in loops { release.signal() } }
        #expect(waitUntil(timeout: 2) { held.load(ordering: .relaxed) == loops.count })
        peer.send(try Request.snapshot(recipientsOf: []).frame.bytes)
        #expect(peer.readFrame()?.first == Frame.Kind.snapshot.rawValue)
        #expect(letGo.load(ordering: .relaxed) == 0, "the snapshot came only after the shared loops were let go")
    }

    /// An agent that paces each viewer to one snapshot in 0.2 s, with the whole budget, and a peer past its hello.
    private func pacedPeer() throws -> (MonitorAgent, RawPeer) {
        var limits = MonitorAgent.Limits()
        limits.minimumSnapshotInterval = 0.2
        limits.snapshotShare = 1
        let agent = try MonitorAgent.start(
            watching: PostOffice(), limits: limits, runtimeDirectory: temporaryRuntimeDirectory())
        guard let peer = RawPeer(path: agent.socketPath) else {
            agent.stop()
            throw PeerError.notConnected
        }
        #expect(peer.readFrame()?.first == Frame.Kind.hello.rawValue)
        return (agent, peer)
    }

    private enum PeerError: Error { case notConnected }

    @Test("a viewer that asks faster than its minimum interval waits: six requests at once take five intervals")
    func aViewerIsPaced() throws {
        let (agent, peer) = try pacedPeer()
        defer { agent.stop() }
        let request = try Request.snapshot(recipientsOf: []).frame.bytes
        peer.send(Array((0..<6).map { _ in request }.joined()))
        var times: [Double] = []
        for _ in 0..<6 {
            guard peer.readFrame()?.first == Frame.Kind.snapshot.rawValue else { break }
            times.append(MonotonicNow.seconds())
        }
        #expect(times.count == 6)
        let spread = (times.last ?? 0) - (times.first ?? 0)
        // A lower bound only: a loaded machine answers later, never sooner.
        #expect(spread >= 5 * 0.2 - 0.01, "six snapshots in \(spread) s, where five intervals are 1 s")
    }

    @Test("keep-alives take the viewer's pace too: a peer sending them nonstop costs the agent no more than snapshots")
    func keepAlivesArePaced() throws {
        let (agent, peer) = try pacedPeer()
        defer { agent.stop() }
        let keepAlive = try Request.keepAlive.frame.bytes
        let sent = MonotonicNow.seconds()
        peer.send(Array((0..<5).map { _ in keepAlive }.joined()) + (try Request.snapshot(recipientsOf: []).frame.bytes))
        #expect(peer.readFrame()?.first == Frame.Kind.snapshot.rawValue, "a keep-alive is not answered")
        let waited = MonotonicNow.seconds() - sent
        // A lower bound only: five keep-alives, then the snapshot, each after the interval since the one before.
        #expect(waited >= 5 * 0.2 - 0.01, "five keep-alives and a snapshot answered in \(waited) s, not 1 s or more")
    }

    @Test("after a snapshot of t seconds of CPU, the next of any viewer waits t * (1 / share - 1)")
    func theBudgetSpacesSnapshotsByTheirCost() {
        let budget = SnapshotBudget(share: 0.25)
        #expect(budget.earliestStart == 0)
        budget.spent(cpu: 10_000_000, endingAt: 1_000_000_000)
        #expect(budget.earliestStart == 1_030_000_000)
        // A snapshot that ended earlier (another thread's) never moves it back.
        budget.spent(cpu: 1_000_000, endingAt: 900_000_000)
        #expect(budget.earliestStart == 1_030_000_000)
        let whole = SnapshotBudget(share: 1)
        whole.spent(cpu: 10_000_000, endingAt: 5)
        #expect(whole.earliestStart == 5)
    }

    @Test("out-of-range pace limits are refused with the setting's name and what is valid")
    func invalidPaceLimits() {
        let cases: [(String, (inout MonitorAgent.Limits) -> Void)] = [
            ("threads is 0; expected 1...64", { $0.threads = 0 }),
            ("minimumSnapshotInterval is -1.0; expected seconds, 0 or more", { $0.minimumSnapshotInterval = -1 }),
            (
                "snapshotShare is 0.0; expected a share of one core, greater than 0, at most 1",
                { $0.snapshotShare = 0 }
            ),
            (
                "snapshotShare is 2.0; expected a share of one core, greater than 0, at most 1",
                { $0.snapshotShare = 2 }
            ),
        ]
        for (message, change) in cases {
            var limits = MonitorAgent.Limits()
            change(&limits)
            #expect(throws: AgentError.invalidLimits(message)) {
                try MonitorAgent.start(
                    watching: PostOffice(), limits: limits, runtimeDirectory: temporaryRuntimeDirectory())
            }
        }
    }
}
