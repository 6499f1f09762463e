import Dispatch
import Foundation
import PonyExpress
import Synchronization

/// The moving parts of one run: the posting threads, the lifecycle thread and the recipients. The threads hold the
/// engine, not the ``ScenarioRunner``, so that releasing the runner stops them.
final class ScenarioEngine: Sendable {
    private enum Stage: Int {
        case ready, running, stopped
    }

    let scenario: Scenario
    let office: PostOffice
    let seed: UInt64
    let rate: Double
    let clock = ScenarioClock()
    private let stage = Atomic<Int>(Stage.ready.rawValue)
    private let stopping = Atomic<Bool>(false)
    private let paused = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let postedCount = Atomic<UInt64>(0)
    private let threadsDone = DispatchGroup()
    /// What `start` makes once: read by `progress` without waiting for the lifecycle thread.
    private struct Setup: @unchecked Sendable {
        let plan: ScenarioPlan
        let inboxes: [Inbox]
    }
    private let setup = Locked<Setup?>(nil)
    /// The live recipients, and the sender instances their exact filters point at, until `stop`.
    private struct Population: @unchecked Sendable {
        var recipients: RecipientPopulation?
        var senders: [ScenarioSenderType: [any DemoSender]] = [:]
    }
    private let population = Locked(Population())

    init(scenario: Scenario, office: PostOffice, rate: Double, seed: UInt64) {
        self.scenario = scenario
        self.office = office
        self.rate = rate
        self.seed = seed
    }

    var posted: UInt64 { postedCount.load(ordering: .relaxed) }
    var isPaused: Bool { paused.load(ordering: .relaxed) }
    var isFinished: Bool { finished.load(ordering: .relaxed) }

    // MARK: - Start and stop

    func start() {
        guard
            stage.compareExchange(expected: Stage.ready.rawValue, desired: Stage.running.rawValue, ordering: .acquiring)
                .exchanged
        else { return }
        var senders: [ScenarioSenderType: [any DemoSender]] = [:]
        for type in ScenarioSenderType.allCases {
            senders[type] = (0..<ScenarioSenderType.instancesPerType).map { type.type.init(instance: $0) }
        }
        var queues: [ScenarioQueue: DispatchQueue] = [:]
        for queue in ScenarioQueue.allCases {
            guard let label = queue.label else { continue }
            queues[queue] = DispatchQueue(label: label, attributes: queue.isConcurrent ? .concurrent : [])
        }
        let plan = ScenarioPlan(scenario: scenario, rate: rate, senders: senders)
        // The first recipients are registered before anything posts, so that the first posts find them.
        let population = RecipientPopulation(
            scenario: scenario, office: office, seed: seed, queues: queues, senders: senders)
        setup.withLock { $0 = Setup(plan: plan, inboxes: population.groups.map(\.inbox)) }
        // A `stop` racing with this `start` either finds the recipients here, or is seen here and removes them.
        var abandoned = self.population.withLock { stored -> RecipientPopulation? in
            if stopping.load(ordering: .acquiring) { return population }
            stored = Population(recipients: population, senders: senders)
            return nil
        }
        if abandoned != nil {
            abandoned?.removeAll()
            return
        }
        clock.start()
        spawn(name: "scenario lifecycle") { engine in engine.runLifecycle(plan: plan) }
        for index in 0..<plan.threadCount {
            spawn(name: "scenario poster \(index)") { engine in engine.runPoster(index: index, plan: plan) }
        }
    }

    private func spawn(name: String, _ body: @escaping @Sendable (ScenarioEngine) -> Void) {
        threadsDone.enter()
        let thread = Thread { [self] in
            body(self)
            threadsDone.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Stops every thread, waiting at most `timeout` seconds for them, then unregisters every recipient.
    ///
    /// The threads check for `stop` before every post and every ended life, so they are normally gone within
    /// milliseconds; the rest of the second is for unregistering.
    func stop(timeout: Double = 0.5) {
        let previous = stage.exchange(Stage.stopped.rawValue, ordering: .acquiringAndReleasing)
        stopping.store(true, ordering: .releasing)
        finished.store(true, ordering: .relaxed)
        guard previous == Stage.running.rawValue else { return }
        _ = threadsDone.wait(timeout: .now() + timeout)
        var recipients = population.withLock { population in
            defer { population = Population() }
            return population.recipients
        }
        recipients?.removeAll()
    }

    func pause() {
        paused.store(true, ordering: .releasing)
        clock.pause()
    }

    func resume() {
        clock.resume()
        paused.store(false, ordering: .releasing)
    }

    // MARK: - Threads

    /// Ends recipients' lives as the clock says, and notices when a scenario that stops has come to its end.
    private func runLifecycle(plan: ScenarioPlan) {
        while !stopping.load(ordering: .acquiring) {
            let elapsed = clock.elapsed()
            population.withLock { population in
                population.recipients?.advance(to: elapsed) { stopping.load(ordering: .relaxed) }
            }
            if plan.position(at: elapsed).finished { finished.store(true, ordering: .relaxed) }
            ThreadSleep.sleep(seconds: 0.005)
        }
    }

    /// Posts thread `index`'s share of each phase: a token bucket refilled at the phase's rate, spent in batches,
    /// sleeping only when it is empty.
    private func runPoster(index: Int, plan: ScenarioPlan) {
        var random = SplitMix64(seed: seed)
        var burstRandom = SplitMix64(seed: seed)
        var current: (lap: Int, phase: Int)?
        var tokens = 0.0
        var burstsSeen = 0
        var burstOwed = 0
        var last = clock.elapsed()
        while !stopping.load(ordering: .relaxed) {
            if paused.load(ordering: .relaxed) {
                ThreadSleep.sleep(seconds: 0.005)
                continue
            }
            let now = clock.elapsed()
            let position = plan.position(at: now)
            if position.finished {
                ThreadSleep.sleep(seconds: 0.01)
                continue
            }
            let phase = plan.phases[position.index]
            if current.map({ $0 != (position.lap, position.index) }) ?? true {
                // Each thread, phase and lap draws from its own stream, so what is posted does not depend on how
                // many posts the previous phase happened to fit in; bursts draw from another, so that when they
                // fall between steady posts changes the order of the two sequences, never their contents.
                current = (position.lap, position.index)
                let streams = [UInt64(index), UInt64(position.index), UInt64(position.lap)]
                random = SplitMix64(seed: seed, stream: streams[0], streams[1], streams[2])
                burstRandom = SplitMix64(seed: seed, stream: streams[0], streams[1], streams[2], 0xB0B5)
                tokens = 0
                burstsSeen = 0
                burstOwed = 0
                last = now
            }
            guard index < phase.threads else {
                ThreadSleep.sleep(seconds: 0.01)
                continue
            }
            if let every = phase.burstEvery {
                let bursts = Int(min(position.elapsedInPhase / every, 1e9))
                if bursts > burstsSeen {
                    // Capped, so that bursts missed while the machine stalled cannot pile up without bound.
                    let missed = min(bursts - burstsSeen, 1_000)
                    burstOwed = min(burstOwed + missed * phase.burstShare(for: index), 100_000_000)
                    burstsSeen = bursts
                }
            }
            var budget: Int
            let perSecond = phase.perThreadRate(at: position.elapsedInPhase)
            if let perSecond {
                tokens = min(tokens + perSecond * max(now - last, 0), max(1, perSecond * 0.1))
                budget = Int(tokens)
                tokens -= Double(budget)
            } else {
                budget = 1_024
            }
            last = now
            if budget == 0, burstOwed == 0 {
                let wait = (perSecond ?? 0) > 0 ? (1 - tokens) / perSecond! : 0.01
                ThreadSleep.sleep(seconds: min(max(wait, 0.0005), 0.01))
                continue
            }
            let burst = min(burstOwed, 4_096)
            burstOwed -= burst
            var made: UInt64 = 0
            defer { postedCount.add(made, ordering: .relaxed) }
            for _ in 0..<burst {
                if stopping.load(ordering: .relaxed) || paused.load(ordering: .relaxed) { break }
                phase.burstMix.postOne(to: office, using: &burstRandom)
                made += 1
            }
            for _ in 0..<min(budget, 65_536) {
                if stopping.load(ordering: .relaxed) || paused.load(ordering: .relaxed) { break }
                phase.mix.postOne(to: office, using: &random)
                made += 1
            }
        }
    }

    // MARK: - Progress

    var progress: ScenarioProgress {
        let elapsed = clock.elapsed()
        let phases = scenario.phases
        let setup = setup.withLock { $0 }
        let position =
            setup?.plan.position(at: elapsed)
            ?? ScenarioPlan.Position(lap: 0, index: 0, elapsedInPhase: 0, finished: false)
        let index = phases.isEmpty ? 0 : min(position.index, phases.count - 1)
        return ScenarioProgress(
            phaseName: phases.isEmpty ? "" : phases[index].name, phaseIndex: index, phaseCount: phases.count,
            elapsed: elapsed, posted: posted, isPaused: isPaused, isFinished: isFinished || position.finished,
            delivered: setup?.inboxes.reduce(0) { $0 + $1.delivered } ?? 0)
    }
}
