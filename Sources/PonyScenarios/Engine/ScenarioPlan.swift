import PonyExpress

/// A scenario made ready to run: rates scaled and shared out between threads, mixes turned into cumulative
/// weights with their post functions and sender instances, and every value clamped to what the runner supports.
struct ScenarioPlan: Sendable {
    /// Where in the scenario a moment of the run falls.
    struct Position: Equatable {
        /// How many times the whole scenario had run before.
        var lap: Int
        /// The phase.
        var index: Int
        /// Seconds into the phase.
        var elapsedInPhase: Double
        /// Whether the scenario has ended (with ``Scenario/Ending/stop``).
        var finished: Bool
    }

    /// One entry of a mix, ready to post.
    struct Choice: Sendable {
        let cumulativeWeight: Double
        let post: @Sendable (PostOffice, AnyObject?, UInt64) -> Void
        let senders: [any DemoSender]
    }

    /// A weighted mix, ready to draw from.
    struct Mix: Sendable {
        let choices: [Choice]
        let totalWeight: Double

        /// Posts one mail drawn from the mix.
        @inline(__always)
        func postOne(to office: PostOffice, using random: inout SplitMix64) {
            guard !choices.isEmpty else { return }
            let choice: Choice
            if choices.count == 1 {
                choice = choices[0]
            } else {
                let target = random.nextUnit() * totalWeight
                choice = choices.first { target < $0.cumulativeWeight } ?? choices[choices.count - 1]
            }
            let sender: AnyObject? =
                switch choice.senders.count {
                case 0: nil
                case 1: choice.senders[0]
                default: choice.senders[Int(random.next() % UInt64(choice.senders.count))]
                }
            choice.post(office, sender, random.next())
        }
    }

    /// A phase, ready to run.
    struct Phase: Sendable {
        let name: String
        let duration: Double
        let threads: Int
        let rate: ScenarioRate
        /// The factor every rate is multiplied by, divided by the phase's threads.
        let perThreadScale: Double
        let mix: Mix
        let burstEvery: Double?
        let burstSize: Int
        let burstMix: Mix

        /// Posts per second for one thread at `elapsed` seconds into the phase; `nil` for as fast as possible.
        func perThreadRate(at elapsed: Double) -> Double? {
            rate.perSecond(at: elapsed, of: duration).map { Swift.max(0, $0 * perThreadScale) }
        }

        /// The part of each burst that thread `index` posts.
        func burstShare(for index: Int) -> Int {
            burstSize / threads + (index < burstSize % threads ? 1 : 0)
        }
    }

    static let maxThreads = 16
    static let minDuration = 0.001
    static let maxDuration = 1e9
    static let maxRate = 10_000_000.0

    let phases: [Phase]
    let ending: Scenario.Ending
    let cycle: Double
    /// The most threads any phase uses: the runner starts that many.
    let threadCount: Int

    init(scenario: Scenario, rate scale: Double, senders: [ScenarioSenderType: [any DemoSender]]) {
        let range = ScenarioRunner.rateRange
        let scale = scale.isFinite ? Swift.min(Swift.max(scale, range.lowerBound), range.upperBound) : 1
        func mix(_ choices: [ScenarioMailChoice]) -> Mix {
            var total = 0.0
            var compiled: [Choice] = []
            for choice in choices where choice.weight.isFinite && choice.weight > 0 {
                total += choice.weight
                compiled.append(
                    Choice(
                        cumulativeWeight: total, post: choice.mail.entry.post,
                        senders: choice.sender.map { senders[$0] ?? [] } ?? []))
            }
            return Mix(choices: compiled, totalWeight: total)
        }
        phases = scenario.phases.map { phase in
            let threads = Swift.min(Swift.max(phase.threads, 1), ScenarioPlan.maxThreads)
            let clamp = { (rate: Double) in rate.isFinite ? Swift.min(Swift.max(rate, 0), ScenarioPlan.maxRate) : 0 }
            let rate: ScenarioRate =
                switch phase.rate {
                case .steady(let value): .steady(clamp(value))
                case .ramp(let from, let to): .ramp(from: clamp(from), to: clamp(to))
                case .max: .max
                }
            let every = phase.bursts.map(\.every).flatMap { $0.isFinite && $0 > 0 ? Swift.max($0, 0.01) : nil }
            let burstSize = (phase.bursts?.size).map { Int(Swift.min(Double(Swift.max($0, 0)) * scale, 1e9)) } ?? 0
            let phaseMix = mix(phase.mail)
            let burstMix = (phase.bursts?.mail).flatMap { $0.isEmpty ? nil : mix($0) } ?? phaseMix
            let duration = phase.duration.isFinite ? phase.duration : 1
            // A phase with nothing to post (possible only from code) waits out its duration.
            return Phase(
                name: phase.name,
                duration: Swift.min(Swift.max(duration, ScenarioPlan.minDuration), ScenarioPlan.maxDuration),
                threads: threads, rate: phaseMix.choices.isEmpty ? .steady(0) : rate,
                perThreadScale: scale / Double(threads), mix: phaseMix, burstEvery: every,
                burstSize: burstMix.choices.isEmpty ? 0 : burstSize, burstMix: burstMix)
        }
        ending = scenario.ending
        cycle = phases.reduce(0) { $0 + $1.duration }
        threadCount = phases.map(\.threads).max() ?? 0
    }

    /// Where `elapsed` seconds of running fall.
    func position(at elapsed: Double) -> Position {
        guard !phases.isEmpty, cycle > 0 else { return Position(lap: 0, index: 0, elapsedInPhase: 0, finished: true) }
        let laps = (Swift.max(elapsed, 0) / cycle).rounded(.down)
        let lap = laps < Double(Int.max / 2) ? Int(laps) : Int.max / 2
        if ending == .stop, lap >= 1 {
            return Position(
                lap: 0, index: phases.count - 1, elapsedInPhase: phases[phases.count - 1].duration,
                finished: true)
        }
        var time = Swift.max(elapsed - laps * cycle, 0)
        for (index, phase) in phases.enumerated() {
            if time < phase.duration { return Position(lap: lap, index: index, elapsedInPhase: time, finished: false) }
            time -= phase.duration
        }
        let last = phases.count - 1
        return Position(lap: lap, index: last, elapsedInPhase: phases[last].duration, finished: false)
    }
}
