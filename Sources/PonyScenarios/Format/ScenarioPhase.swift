/// A timed stretch of a scenario: for `duration` seconds, `threads` threads post the `mail` mix at `rate`.
public struct ScenarioPhase: Sendable, Hashable {
    /// The phase's name, shown as progress.
    public let name: String
    /// How long it lasts, in seconds.
    public let duration: Double
    /// How many threads post at once; the rate is shared between them.
    public let threads: Int
    /// How many posts per second, over all threads.
    public let rate: ScenarioRate
    /// Which mail is posted, chosen at random by weight.
    public let mail: [ScenarioMailChoice]
    /// Extra posts in bursts, if any.
    public let bursts: ScenarioBursts?

    /// Creates a phase.
    ///
    /// - Parameters:
    ///   - name: Shown as progress.
    ///   - duration: Seconds.
    ///   - threads: Posting threads.
    ///   - rate: Posts per second over all threads.
    ///   - mail: The mix to post, at least one.
    ///   - bursts: Extra posts in bursts.
    public init(
        name: String, duration: Double, threads: Int = 1, rate: ScenarioRate, mail: [ScenarioMailChoice],
        bursts: ScenarioBursts? = nil
    ) {
        self.name = name
        self.duration = duration
        self.threads = threads
        self.rate = rate
        self.mail = mail
        self.bursts = bursts
    }
}

/// How many posts per second a phase makes, over all its threads.
public enum ScenarioRate: Sendable, Hashable {
    /// The same rate throughout.
    case steady(Double)
    /// A rate that changes linearly from `from` at the phase's start to `to` at its end.
    case ramp(from: Double, to: Double)
    /// As fast as the threads can post.
    case max

    /// The rate `elapsed` seconds into a phase of `duration` seconds, or `nil` for ``max``.
    public func perSecond(at elapsed: Double, of duration: Double) -> Double? {
        switch self {
        case .steady(let rate): return rate
        case .ramp(let from, let to):
            guard duration > 0 else { return to }
            let progress = Swift.min(Swift.max(elapsed / duration, 0), 1)
            return from + (to - from) * progress
        case .max: return nil
        }
    }
}

/// One entry of a phase's mail mix.
public struct ScenarioMailChoice: Sendable, Hashable {
    /// The mail type to post.
    public let mail: ScenarioMailType
    /// Its share of the posts, relative to the other entries' weights.
    public let weight: Double
    /// Who posts it, or `nil` to post without a sender.
    public let sender: ScenarioSenderType?

    /// Creates an entry posted by the mail type's usual sender (``ScenarioMailType/defaultSender``).
    public init(_ mail: ScenarioMailType, weight: Double = 1) {
        self.init(mail, weight: weight, sender: mail.defaultSender)
    }

    /// Creates an entry posted by `sender`, or without a sender when it is `nil`.
    public init(_ mail: ScenarioMailType, weight: Double = 1, sender: ScenarioSenderType?) {
        self.mail = mail
        self.weight = weight
        self.sender = sender
    }
}

/// Extra posts that arrive all at once, every so often.
public struct ScenarioBursts: Sendable, Hashable {
    /// Seconds between bursts; the first comes `every` seconds into the phase.
    public let every: Double
    /// Posts per burst, over all threads.
    public let size: Int
    /// What a burst posts; empty for the phase's own mix.
    public let mail: [ScenarioMailChoice]

    /// Creates bursts.
    public init(every: Double, size: Int, mail: [ScenarioMailChoice] = []) {
        self.every = every
        self.size = size
        self.mail = mail
    }
}
