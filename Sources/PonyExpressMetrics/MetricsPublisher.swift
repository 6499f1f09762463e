import CoreMetrics
import Dispatch
import PonyExpress
import PonyExpressMonitor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Publishes a `PostOfficeMonitor`'s figures through swift-metrics, on an interval, for whichever backend the
/// app bootstrapped (swift-prometheus, StatsD, OpenTelemetry...).
///
/// ```swift
/// let monitor = PostOfficeMonitor()
/// monitor.attach(to: .default)
/// let publisher = MetricsPublisher(monitor: monitor)
/// publisher.start(every: .seconds(10))
/// ```
///
/// Each tick takes one `MonitorSnapshot` and publishes it: counters (posts, deliveries, skips, prunes per mail
/// type) grow by what the snapshot's totals grew since the last tick, gauges (live recipients per mail type and per
/// site, handler and queue wait percentiles, findings per kind, the monitor's memory) are set. Nothing is recorded
/// when mail is posted: publishing costs a post nothing beyond what the monitor already costs. The names, labels and
/// their bounds are in the article "Metrics".
public final class MetricsPublisher: Sendable {
    /// How many registration sites get a series of their own when none is given: those with the most live
    /// registrations.
    public static let defaultSiteLimit = 20

    /// The monitor whose snapshots are published.
    public let monitor: PostOfficeMonitor
    /// How many registration sites get a series of their own.
    public let siteLimit: Int

    private let factory: any MetricsFactory
    /// The publisher's own judge of findings, so that no viewer's cadence or reset moves the findings gauges.
    private let judge: FindingJudge
    private let state = Locked(State())
    private let timer = Locked<(any DispatchSourceTimer)?>(nil)
    private let queue = DispatchQueue(label: "PonyExpressMetrics.publisher")

    /// What the publisher has handed to swift-metrics.
    private struct State {
        /// The running totals published so far, per counter.
        var totals: [MetricKey: UInt64] = [:]
        var counters: [MetricKey: Counter] = [:]
        var gauges: [MetricKey: Gauge] = [:]
        var ticks = 0
        var cpuNanoseconds: UInt64 = 0
    }

    /// Creates a publisher; nothing is published until ``start(every:)`` or ``tick()``.
    ///
    /// - Parameters:
    ///   - monitor: The monitor to read. It may be attached or not; its snapshots are what is published.
    ///   - siteLimit: How many registration sites get a series of their own (at least 0); the rest are summed
    ///     under `site="other"`. The monitor's `MonitorSettings.siteCapacity` bounds it too.
    ///   - factory: Where metrics go: by default the factory the app bootstrapped with `MetricsSystem.bootstrap`.
    public init(
        monitor: PostOfficeMonitor, siteLimit: Int = MetricsPublisher.defaultSiteLimit,
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        precondition(siteLimit >= 0, "siteLimit must be 0 or more")
        self.monitor = monitor
        self.siteLimit = siteLimit
        self.factory = factory
        judge = monitor.makeJudge()
    }

    deinit {
        timer.withLock { $0?.cancel() }
    }

    /// Publishes a snapshot of the monitor now, on the calling thread.
    public func tick() {
        let started = Self.threadCPUNanoseconds()
        publish(monitor.snapshot(judgedBy: judge))
        let spent = Self.threadCPUNanoseconds() &- started
        state.withLock {
            $0.ticks += 1
            $0.cpuNanoseconds &+= spent
        }
    }

    /// Publishes `snapshot`: counters grow by what its totals grew since the last snapshot published (by all of a
    /// total that shrank, as after `PostOfficeMonitor.reset()`), gauges take its values, and the gauges of series
    /// it no longer has (a site that left the top ``siteLimit``) are removed from the backend.
    ///
    /// - Parameter snapshot: A snapshot of the monitor, or one made by hand in a test.
    public func publish(_ snapshot: MonitorSnapshot) {
        let figures = MetricFigures(snapshot, siteLimit: Swift.min(siteLimit, monitor.settings.siteCapacity))
        state.withLock { state in
            for (key, total) in figures.counters {
                let previous = state.totals[key] ?? 0
                let increase = total >= previous ? total - previous : total
                state.totals[key] = total
                let counter = state.counters[key] ?? makeCounter(key, in: &state)
                if increase > 0 { counter.increment(by: Int64(clamping: increase)) }
            }
            for (key, value) in figures.gauges {
                let gauge = state.gauges[key] ?? makeGauge(key, in: &state)
                gauge.record(value)
            }
            for (key, gauge) in state.gauges where figures.gauges[key] == nil {
                gauge.destroy()
                state.gauges[key] = nil
            }
        }
    }

    /// Publishes every `interval` on a queue of its own, starting now; again after a ``stop()``. Does nothing if
    /// already started.
    ///
    /// - Parameter interval: Time between snapshots, greater than zero. Prometheus scrapes what was last
    ///   published, so an interval at or below the scrape interval keeps its figures fresh.
    public func start(every interval: Duration) {
        precondition(interval > .zero, "the interval must be greater than zero")
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        timer.withLock { timer in
            guard timer == nil else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now(), repeating: .nanoseconds(Swift.max(1, nanoseconds)))
            source.setEventHandler { [weak self] in self?.tick() }
            source.resume()
            timer = source
        }
    }

    /// Stops publishing. Once it returns no tick is running or will start; what was published stays in the backend.
    public func stop() {
        let stopped = timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        guard let stopped else { return }
        stopped.cancel()
        queue.sync {}
    }

    /// How many ticks ran and the CPU time their threads spent in them: what publishing costs.
    package var cost: (ticks: Int, cpuNanoseconds: UInt64) {
        state.withLock { ($0.ticks, $0.cpuNanoseconds) }
    }

    private func makeCounter(_ key: MetricKey, in state: inout State) -> Counter {
        let counter = Counter(label: key.name, dimensions: key.dimensions, factory: factory)
        state.counters[key] = counter
        return counter
    }

    private func makeGauge(_ key: MetricKey, in state: inout State) -> Gauge {
        let gauge = Gauge(label: key.name, dimensions: key.dimensions, factory: factory)
        state.gauges[key] = gauge
        return gauge
    }

    /// The calling thread's CPU time.
    private static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
