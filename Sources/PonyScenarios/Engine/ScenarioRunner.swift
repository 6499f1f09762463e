import PonyExpress

/// Drives a real `PostOffice` with a ``Scenario``: registers its recipients, and posts its mail from real threads
/// at the rates its phases give.
///
/// ```swift
/// let office = PostOffice()
/// let runner = ScenarioRunner(scenario: Scenario.builtins[0], office: office, rate: 2, seed: 42)
/// runner.start()
/// print(runner.progress.posted)
/// runner.stop()
/// ```
///
/// - `start()` registers the scenario's first recipients, then starts one posting thread per thread of the busiest
///   phase and one lifecycle thread that ends and replaces recipients as their lifetimes run out.
/// - After the last phase the scenario repeats from the first (recipients carry on as they are), unless it ends
///   with `"then": "stop"`, in which case posting stops and ``ScenarioProgress/isFinished`` becomes true.
/// - `stop()` returns within a second: no thread posts afterwards, and every registration the runner still holds
///   is unregistered, so queued deliveries that have not started never run. Registrations of objects the scenario
///   released on purpose are left to the post office to prune, as in an app.
/// - What is posted and registered, and in which order, depends only on the scenario, `rate`, `seed` and how long
///   the run lasts: each posting thread draws from its own seeded generator, restarted at every phase.
///
/// A runner runs once: `start()` after `stop()` does nothing. Every method may be called from any thread.
public final class ScenarioRunner: Sendable {
    private let engine: ScenarioEngine

    /// The rate factors the runner honours; ``init(scenario:office:rate:seed:)`` clamps others into it. A front end
    /// can check a user's factor against it and say what is valid.
    public static let rateRange: ClosedRange<Double> = 0...1_000_000

    /// The scenario being run.
    public var scenario: Scenario { engine.scenario }

    /// Prepares a run; nothing is registered or posted until ``start()``.
    ///
    /// - Parameters:
    ///   - scenario: What to run.
    ///   - office: The post office to drive.
    ///   - rate: A factor for every posting rate and burst size; values outside ``rateRange``, and non-finite
    ///     ones, are clamped (non-finite to 1). Phases at `"max"` rate post as fast as they can whatever the factor.
    ///   - seed: Chooses what is posted; the same seed posts the same sequence.
    public init(scenario: Scenario, office: PostOffice, rate: Double = 1, seed: UInt64 = 1) {
        engine = ScenarioEngine(scenario: scenario, office: office, rate: rate, seed: seed)
    }

    deinit {
        engine.stop()
    }

    /// Registers the scenario's recipients and starts posting. Calling it again does nothing.
    public func start() {
        engine.start()
    }

    /// Stops posting and unregisters the runner's recipients; returns within a second.
    ///
    /// Deliveries already running finish; queued ones that have not started are dropped by the post office.
    public func stop() {
        engine.stop()
    }

    /// Stops posting and freezes the scenario's clock, so phases and recipient lifetimes wait too.
    public func pause() {
        engine.pause()
    }

    /// Continues after ``pause()``.
    public func resume() {
        engine.resume()
    }

    /// Whether the runner is paused.
    public var isPaused: Bool { engine.isPaused }

    /// The current phase, time run and posts made.
    public var progress: ScenarioProgress { engine.progress }
}
