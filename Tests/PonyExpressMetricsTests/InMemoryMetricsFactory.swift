import CoreMetrics
import PonyExpress

/// A swift-metrics backend that keeps every value in memory, for tests to read back: counters as their running
/// totals, gauges as their last value, keyed by the series as Prometheus writes it (`name{label="value"}`).
final class InMemoryMetricsFactory: MetricsFactory {
    private let store = Store()

    /// The value of a series, or `nil` if it was never made or was destroyed.
    subscript(_ series: String) -> Double? {
        store.values.withLock { $0[series] }
    }

    /// Every series made and not destroyed.
    var series: Set<String> { store.values.withLock { Set($0.keys) } }

    /// How many times a handler was made for a series.
    func made(_ series: String) -> Int { store.made.withLock { $0[series] ?? 0 } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        make(label, dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        make(label, dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        make(label, dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        make(label, dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        make(label, dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { destroy(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { destroy(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { destroy(handler) }
    func destroyMeter(_ handler: any MeterHandler) { destroy(handler) }
    func destroyTimer(_ handler: any TimerHandler) { destroy(handler) }

    private func make(_ label: String, _ dimensions: [(String, String)]) -> Handler {
        var series = label
        if !dimensions.isEmpty {
            series += "{" + dimensions.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: ",") + "}"
        }
        store.made.withLock { $0[series, default: 0] += 1 }
        store.values.withLock { $0[series] = $0[series] ?? 0 }
        return Handler(series: series, store: store)
    }

    private func destroy(_ handler: AnyObject) {
        guard let handler = handler as? Handler else { return }
        _ = store.values.withLock { $0.removeValue(forKey: handler.series) }
    }

    /// The values, shared by the factory and its handlers. Behind PonyExpress's pthread lock, not
    /// `Synchronization.Mutex`: ThreadSanitizer does not see the Mutex's futex synchronization on Linux and reported
    /// the publisher's tick and the test's read as a race.
    private final class Store: Sendable {
        let values = Locked<[String: Double]>([:])
        let made = Locked<[String: Int]>([:])
    }

    /// One series' handler for every kind of metric.
    private final class Handler: CounterHandler, FloatingPointCounterHandler, RecorderHandler, MeterHandler,
        TimerHandler
    {
        let series: String
        private let store: Store

        init(series: String, store: Store) {
            self.series = series
            self.store = store
        }

        func increment(by amount: Int64) { add(Double(amount)) }
        func increment(by amount: Double) { add(amount) }
        func reset() { set(0.0) }
        func record(_ value: Int64) { set(Double(value)) }
        func record(_ value: Double) { set(value) }
        func set(_ value: Int64) { set(Double(value)) }
        func set(_ value: Double) { store.values.withLock { $0[series] = value } }
        func decrement(by amount: Double) { add(-amount) }
        func recordNanoseconds(_ duration: Int64) { set(Double(duration)) }
        private func add(_ amount: Double) { store.values.withLock { $0[series, default: 0] += amount } }
    }
}
