import Dispatch
import Foundation
import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyScenarios

@Suite(.blocksItsThread, .tags(.concurrency)) struct ScenarioRunnerTests {
    /// A scenario from file text, for runs shaped by one test.
    func scenario(_ text: String) throws -> Scenario {
        try Scenario.parse(Array(text.utf8), fileName: "test.json")
    }

    /// Starts `scenario` on a fresh, tapped post office.
    func start(_ scenario: Scenario, rate: Double = 1, seed: UInt64 = 1) -> (ScenarioRunner, PostOffice, RecordingTap) {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let runner = ScenarioRunner(scenario: scenario, office: office, rate: rate, seed: seed)
        runner.start()
        return (runner, office, tap)
    }

    @Test(arguments: Scenario.builtinNames)
    func eachBuiltInRegistersAndPosts(name: String) throws {
        let (runner, office, tap) = start(try #require(Scenario.builtin(named: name)))
        #expect(office.recipientCount > 0)
        #expect(waitUntil(timeout: 5) { runner.progress.posted >= 20 && !tap.delivered.isEmpty })
        #expect(runner.progress.phaseName == Scenario.builtin(named: name)?.phases[0].name)
        // A deadline that catches a hang; how quickly stop() returns is `ponybench runner`'s to measure.
        #expect(finishes(within: 10) { runner.stop() })
        #expect(runner.progress.isFinished)
        #expect(office.recipientCount == 0)
    }

    @Test("blocks register from the site of their role: the leaking group apart from the healthy ones")
    func blockSitesByRole() throws {
        let (runner, _, tap) = start(try #require(Scenario.builtin(named: "leaky")))
        #expect(waitUntil(timeout: 5) { tap.registered.contains { $0.site.description.contains("CellObserver") } })
        runner.stop()
        let blockSites = Set(
            tap.registered.filter { $0.kind.objectType == nil }.map { "\($0.mailType.name) \($0.site)" })
        #expect(blockSites.contains("CartUpdated PonyScenarios/CellObserver.swift:10"), "\(blockSites)")
        #expect(!blockSites.contains { $0.contains("BlockObserver.swift") }, "no block registers at the dispatcher")
        let app = try #require(Scenario.builtin(named: "app"))
        let roles = Set(app.recipients.filter(\.kind.isBlock).map { "\(BlockObserver.Role($0))" })
        #expect(roles == ["appWide", "screen"], "the healthy app's blocks: whole-run and screen-scoped")
    }

    static let steady = """
        {
            "name": "steady", "summary": "One thread, a mix, recipients coming and going",
            "recipients": [
                { "kind": "CartViewModel", "mail": ["CartUpdated", "LoginEvent"], "count": 3, "lifetime": 0.05 },
                { "kind": "block", "mail": "Reachability", "count": 2, "queue": "ui", "lifetime": 0.03 },
                { "kind": "SessionViewModel", "mail": "LoginEvent", "lifetime": 0.04, "end": "reregister" }
            ],
            "phases": [
                { "duration": 60, "rate": 3000,
                  "mail": { "CartUpdated": 3, "LoginEvent": 1, "Reachability": 2, "ScreenViewed": 1 } }
            ]
        }
        """

    /// What a run posted and registered, without ids and times: the part a seed decides.
    func record(seed: UInt64) throws -> (posts: [String], registrations: [String]) {
        let (runner, _, tap) = start(try scenario(Self.steady), seed: seed)
        #expect(waitUntil(timeout: 10) { tap.posted.count >= 400 && tap.registered.count >= 30 })
        runner.stop()
        let posts = tap.posted.map { "\($0.mailType)/\($0.senderType?.name ?? "-")" }
        let registrations = tap.registered.map {
            "\($0.mailType)/\($0.kind.objectType?.name ?? "block")/\($0.sender)/\($0.queueLabel ?? "-")"
        }
        return (posts, registrations)
    }

    @Test func theSameSeedPostsAndRegistersTheSame() throws {
        let first = try record(seed: 7)
        let second = try record(seed: 7)
        let posts = min(first.posts.count, second.posts.count)
        let registrations = min(first.registrations.count, second.registrations.count)
        #expect(posts >= 400)
        #expect(registrations >= 30)
        #expect(first.posts.prefix(posts) == second.posts.prefix(posts))
        #expect(first.registrations.prefix(registrations) == second.registrations.prefix(registrations))
        #expect(Set(first.posts.prefix(posts)).count == 4, "every type of the mix is posted")
        let other = try record(seed: 8)
        #expect(other.posts.prefix(posts) != first.posts.prefix(min(posts, other.posts.count)))
    }

    @Test func pauseStopsPostingAndFreezesTheClock() throws {
        let (runner, _, tap) = start(try scenario(Self.steady))
        #expect(waitUntil { tap.posted.count >= 50 })
        runner.pause()
        #expect(runner.isPaused)
        #expect(runner.progress.isPaused)
        let posts = tap.posted.count
        let elapsed = runner.progress.elapsed
        // One post per thread may have been under way when `pause` returned.
        #expect(!waitUntil(timeout: 0.3) { tap.posted.count > posts + 1 })
        #expect(runner.progress.elapsed == elapsed)
        runner.resume()
        #expect(!runner.isPaused)
        #expect(waitUntil { tap.posted.count > posts + 50 })
        #expect(runner.progress.elapsed > elapsed)
        runner.stop()
    }

    @Test func stopReturnsAtFullSpeedAndNothingPostsAfter() throws {
        let (runner, office, tap) = start(try #require(Scenario.builtin(named: "flood")))
        #expect(waitUntil { runner.progress.posted >= 10_000 })
        // A deadline that catches a hang; the 1 s target for stop() under flood is `ponybench runner`'s.
        #expect(finishes(within: 10) { runner.stop() })
        let posts = tap.posted.count
        #expect(!waitUntil(timeout: 0.3) { tap.posted.count != posts })
        #expect(office.recipientCount == 0)
        runner.start()
        #expect(!waitUntil(timeout: 0.1) { tap.posted.count != posts }, "a stopped runner does not start again")
    }

    @Test func stopReturnsEvenWithTheBusiestLifecycleAllowed() throws {
        let text = """
            { "name": "frantic", "summary": "A thousand blocks replaced every hundredth of a second",
              "recipients": [ { "kind": "block", "mail": "Reachability", "count": 1000, "lifetime": 0.01 },
                              { "kind": "CartViewModel", "mail": "CartUpdated", "count": 50, "lifetime": 0.01,
                                "end": "release" } ],
              "phases": [ { "duration": 60, "threads": 16, "rate": 2000,
                            "mail": { "LoginEvent": 9, "CartUpdated": 1 } } ] }
            """
        let (runner, _, tap) = start(try scenario(text))
        #expect(waitUntil { tap.unregistered.count >= 1_000 && tap.pruned.count >= 50 })
        #expect(finishes(within: 10) { runner.stop() })
    }

    @Test func queuedDeliveriesThatHaveNotStartedAreDroppedOnStop() throws {
        let text = """
            {
                "name": "slow", "summary": "A slow serial queue with a backlog",
                "recipients": [ { "kind": "DownloadsViewModel", "mail": "DownloadProgress", "queue": "storage",
                                  "handlerTime": 0.005 } ],
                "phases": [ { "duration": 60, "rate": 2000, "mail": "DownloadProgress" } ]
            }
            """
        let (runner, _, tap) = start(try scenario(text))
        #expect(waitUntil { tap.posted.count >= 200 })
        runner.stop()
        let delivered = tap.delivered.count
        // Only the delivery running on the queue when `stop` unregistered it may still finish.
        #expect(!waitUntil(timeout: 0.3) { tap.delivered.count > delivered + 1 })
    }

    @Test func aScenarioThatStopsFinishes() throws {
        let text = """
            { "name": "short", "summary": "Over quickly", "then": "stop",
              "phases": [ { "duration": 0.1, "rate": 500, "mail": "Reachability" } ] }
            """
        let (runner, _, tap) = start(try scenario(text))
        #expect(waitUntil { runner.progress.isFinished })
        let posts = tap.posted.count
        #expect(posts > 0)
        #expect(!waitUntil(timeout: 0.2) { tap.posted.count != posts })
        runner.stop()
    }

    @Test func phasesFollowTheClockAndRepeat() throws {
        let text = """
            { "name": "two", "summary": "Two short phases",
              "phases": [ { "name": "a", "duration": 0.1, "rate": 200, "mail": "Reachability" },
                          { "name": "b", "duration": 0.1, "rate": 200, "mail": "CartUpdated" } ] }
            """
        let (runner, _, tap) = start(try scenario(text))
        #expect(runner.progress.phaseCount == 2)
        #expect(waitUntil { runner.progress.phaseName == "b" })
        #expect(waitUntil { runner.progress.phaseName == "a" && runner.progress.elapsed > 0.2 })
        runner.stop()
        let types = Set(tap.posted.map(\.mailType))
        #expect(types == [TypeIdentity(Reachability.self), TypeIdentity(CartUpdated.self)])
    }

    @Test func lowRatesArePacedAndTheFactorScalesThem() throws {
        let text = """
            { "name": "slow", "summary": "Forty posts a second",
              "phases": [ { "duration": 60, "rate": 40, "mail": "Reachability" } ] }
            """
        let (runner, _, _) = start(try scenario(text))
        #expect(waitUntil { runner.progress.elapsed >= 0.5 })
        runner.pause()
        let progress = runner.progress
        // At most 40 a second, plus the bucket's tenth of a second of slack.
        #expect(progress.posted > 0)
        #expect(Double(progress.posted) <= 40 * progress.elapsed + 5)
        runner.stop()

        // Doubled: more than 40 a second can post, and still at most 80 a second.
        let (doubled, _, _) = start(try scenario(text), rate: 2)
        #expect(waitUntil(timeout: 10) { Double(doubled.progress.posted) > 40 * doubled.progress.elapsed + 10 })
        doubled.pause()
        let fast = doubled.progress
        #expect(Double(fast.posted) <= 80 * fast.elapsed + 10)
        doubled.stop()

        let (stopped, _, tap) = start(try scenario(text), rate: 0)
        #expect(!waitUntil(timeout: 0.3) { !tap.posted.isEmpty })
        stopped.stop()
    }

    @Test func appIsHealthyNoPrunesNoGrowthFewRecipientsPerType() throws {
        let (runner, office, tap) = start(try #require(Scenario.builtin(named: "app")))
        let first = office.recipientCount
        #expect(waitUntil(timeout: 10) { runner.progress.elapsed >= 1.5 })
        let later = office.recipientCount
        runner.stop()
        #expect(later == first)
        #expect(tap.pruned.isEmpty)
        var perType: [TypeIdentity: Int] = [:]
        for info in tap.registered { perType[info.mailType, default: 0] += 1 }
        #expect(perType.values.allSatisfy { $0 < 100 })
    }

    @Test func senderFiltersUseTheMatchingRegisterOverloads() throws {
        let text = """
            { "name": "senders", "summary": "Four sender filters",
              "recipients": [
                  { "kind": "CartViewModel", "mail": "CartUpdated", "sender": "exactly CartService" },
                  { "kind": "block", "mail": "CartUpdated", "sender": "CartService?" },
                  { "kind": "StatusBarController", "mail": "CartUpdated", "sender": "AuthService" },
                  { "kind": "block", "mail": "CartUpdated", "queue": "workers" }
              ],
              "phases": [ { "duration": 60, "rate": 500,
                            "mail": { "CartUpdated": 1, "Reachability": { "weight": 1, "sender": "none" } } } ] }
            """
        let (runner, _, tap) = start(try scenario(text))
        #expect(waitUntil { tap.posted.count >= 50 })
        runner.stop()
        let cart = TypeIdentity(CartService.self)
        #expect(
            tap.registered.map(\.sender) == [
                .exact(cart), .optional(cart), .required(TypeIdentity(AuthService.self)), .any,
            ])
        #expect(tap.registered.map(\.queueLabel) == [nil, nil, nil, "app.workers"])
        let skipped = Set(tap.skipped.filter { $0.reason == .senderMismatch }.map(\.recipient))
        let ids = tap.registered.map(\.id)
        #expect(skipped == [ids[0], ids[2]], "the other CartService instance, and every CartService for AuthService")
        #expect(tap.posted.contains { $0.mailType == TypeIdentity(Reachability.self) && $0.senderType == nil })
    }

    @Test func churnLeavesDeadWeakReferencesToPrune() throws {
        let (runner, _, tap) = start(try #require(Scenario.builtin(named: "churn")))
        #expect(waitUntil { tap.pruned.count >= 20 })
        runner.stop()
        #expect(tap.pruned.allSatisfy { $0.reason == .recipientReleased })
        #expect(tap.pruned.contains { $0.recipient.kind == .object(TypeIdentity(DownloadsViewModel.self)) })
    }

    @Test func leakyBlocksAndObjectsAccumulate() throws {
        let (runner, office, _) = start(try #require(Scenario.builtin(named: "leaky")))
        // start() registers the first block; the lifecycle may already have added more on a loaded machine.
        let first = office.recipientCount(of: CartUpdated.self)
        #expect(first >= 1)
        #expect(waitUntil { office.recipientCount(of: CartUpdated.self) >= first + 3 })
        #expect(waitUntil { office.recipientCount(of: LoginEvent.self) >= 3 })
        #expect(office.recipients(of: CartUpdated.self).allSatisfy { $0.kind == .block })
        runner.stop()
        #expect(office.recipientCount == 0)
    }

    @Test func oversubscribedPassesAHundredAndRegistersObjectsAgain() throws {
        let (runner, office, _) = start(try #require(Scenario.builtin(named: "oversubscribed")))
        #expect(office.recipientCount(of: Reachability.self) == 150)
        #expect(waitUntil { office.recipientCount(of: CartUpdated.self) >= 6 })
        #expect(
            office.recipients(of: CartUpdated.self).allSatisfy { $0.kind == .object(TypeIdentity(CartViewModel.self)) })
        runner.stop()
    }

    @Test func burstsIntoASlowSerialQueueMakeItsWaitClimb() throws {
        let text = """
            { "name": "bursty", "summary": "Bursts into a slow queue",
              "recipients": [ { "kind": "DownloadsViewModel", "mail": "DownloadProgress", "queue": "storage",
                                "handlerTime": 0.002 } ],
              "phases": [ { "duration": 60, "rate": 20, "mail": "DownloadProgress",
                            "bursts": { "every": 0.2, "size": 50 } } ] }
            """
        let (runner, _, tap) = start(try scenario(text))
        #expect(waitUntil { tap.delivered.contains { $0.wait > 40_000_000 } })
        runner.stop()
        let deliveries = tap.delivered
        #expect(deliveries.allSatisfy { $0.queueLabel == "app.storage" })
        #expect(deliveries.allSatisfy { $0.duration >= 2_000_000 })
    }

    @Test func hierarchyDeliversSubclassesToSuperclassRecipients() throws {
        // The built-in's recipients, with every class of the hierarchy posted from the start.
        let hierarchy = try #require(Scenario.builtin(named: "hierarchy"))
        let everything = ScenarioPhase(
            name: "everything", duration: 60, rate: .steady(2_000),
            mail: [.appEvent, .screenViewed, .networkEvent, .requestFinished, .requestFailed].map {
                ScenarioMailChoice($0)
            })
        let (runner, _, tap) = start(
            Scenario(
                name: "hierarchy", summary: hierarchy.summary, recipients: hierarchy.recipients, phases: [everything]))
        let registered = tap.registered
        let logger = try #require(registered.first { $0.mailType == TypeIdentity(AppEvent.self) }).id
        let network = try #require(registered.first { $0.mailType == TypeIdentity(NetworkEvent.self) }).id
        func received(by id: RecipientId) -> Set<TypeIdentity> {
            Set(tap.delivered.filter { $0.recipient == id }.map(\.mailType))
        }
        // The logger may sit on a queue that a loaded machine serves late: wait for what it must see, then stop.
        let expected: Set = [TypeIdentity(ScreenViewed.self), TypeIdentity(RequestFinished.self)]
        #expect(
            waitUntil(timeout: 20) {
                received(by: logger).isSuperset(of: expected)
                    && received(by: network).contains(TypeIdentity(RequestFailed.self))
            })
        runner.stop()
        let toLogger = received(by: logger)
        let toNetwork = received(by: network)
        #expect(toLogger.isSuperset(of: expected))
        #expect(toNetwork.contains(TypeIdentity(RequestFailed.self)))
        #expect(!toNetwork.contains(TypeIdentity(ScreenViewed.self)))
        #expect(!toNetwork.contains(TypeIdentity(AppEvent.self)))
    }

    @Test func releasingTheRunnerStopsIt() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        do {
            let runner = ScenarioRunner(scenario: try scenario(Self.steady), office: office)
            runner.start()
            #expect(waitUntil { tap.posted.count >= 10 })
        }
        let posts = tap.posted.count
        #expect(!waitUntil(timeout: 0.2) { tap.posted.count > posts })
    }
}

/// Scenarios built in code skip the parser's checks: the runner clamps what it is given instead of trapping.
@Suite(.blocksItsThread, .tags(.concurrency)) struct ScenarioRunnerClampingTests {
    @Test func nonsenseFromCodeRunsAndStops() {
        let scenario = Scenario(
            name: "nonsense", summary: "Every value out of range",
            recipients: [
                ScenarioRecipients(
                    kind: .block, mail: [.reachability], count: -5, lifetime: .nan, end: .release,
                    handlerTime: .infinity, limit: -1),
                ScenarioRecipients(
                    kind: .cartViewModel, mail: [], count: 5_000, queue: .workers, lifetime: 0, end: .reregister),
            ],
            phases: [
                ScenarioPhase(
                    name: "nan", duration: .nan, threads: 1_000, rate: .ramp(from: -1, to: .infinity),
                    mail: [ScenarioMailChoice(.loginEvent, weight: -1)],
                    bursts: ScenarioBursts(every: 0, size: Int.max)),
                ScenarioPhase(
                    name: "huge", duration: 1e300, threads: -3, rate: .steady(.nan), mail: [],
                    bursts: ScenarioBursts(every: 1e-9, size: Int.max, mail: [ScenarioMailChoice(.reachability)])),
            ])
        let office = PostOffice()
        let runner = ScenarioRunner(scenario: scenario, office: office, rate: .nan, seed: 0)
        runner.start()
        #expect(waitUntil { runner.progress.elapsed > 0.2 })
        #expect(finishes(within: 10) { runner.stop() })
        #expect(office.recipientCount == 0)
    }

    @Test func noPhasesMeansFinishedAtOnce() {
        let runner = ScenarioRunner(
            scenario: Scenario(name: "empty", summary: "Nothing", recipients: [], phases: []), office: PostOffice())
        runner.start()
        #expect(runner.progress.isFinished)
        #expect(runner.progress.phaseName == "")
        #expect(runner.progress.phaseCount == 0)
        runner.stop()
    }
}
