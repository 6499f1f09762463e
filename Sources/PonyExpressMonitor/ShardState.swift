import Histogram
import PonyExpress

/// What one shard of the ``ShardTable`` counts. Plain values, so that the hot path updates them in place without reference
/// counting: the shard keeps it behind a pointer and its lock.
struct ShardState {
    /// Index into ``types`` by posted type; types beyond the capacity all share the ``OtherMailTypes`` entry.
    var typeSlots: [ObjectIdentifier: Int] = [:]
    /// Traffic by distinct (admitted) mail type.
    var types: ContiguousArray<TypeTraffic> = []
    /// The type looked up last and its slot: consecutive posts are usually of one type.
    var lastType: ObjectIdentifier?
    var lastSlot = 0
    /// Deliveries by recipient, for recipients the registry knows.
    var recipients = RecipientTable()
    /// Queued deliveries by queue label.
    var queues: [String: QueueTraffic] = [:]
    /// The latency histograms of ``types``, made on first use.
    var histograms: ContiguousArray<Histogram<UInt64>> = []

    /// Counts a delivery of the type in `slot`.
    @inline(__always)
    mutating func recordDelivery(slot: Int, duration: Nanoseconds, wait: Nanoseconds?, second: Int64) {
        types[slot].deliveries &+= 1
        types[slot].seconds.add(1, lane: TypeTraffic.Lane.deliveries, second: second)
        var handler = types[slot].handlerHistogram
        if handler < 0 {
            handler = makeHistogram()
            types[slot].handlerHistogram = handler
        }
        histograms[handler].record(Swift.min(duration, LatencyHistogram.highestTrackable))
        guard let wait else { return }
        var waits = types[slot].waitHistogram
        if waits < 0 {
            waits = makeHistogram()
            types[slot].waitHistogram = waits
        }
        histograms[waits].record(Swift.min(wait, LatencyHistogram.highestTrackable))
    }

    private mutating func makeHistogram() -> Int {
        histograms.append(LatencyHistogram.make())
        return histograms.count - 1
    }

    /// The histogram at `index`, or `nil` for -1.
    func histogram(_ index: Int) -> Histogram<UInt64>? {
        index < 0 ? nil : histograms[index]
    }

    /// The bytes it takes.
    var estimatedBytes: Int {
        let typeBytes =
            typeSlots.capacity * (MemoryLayout<ObjectIdentifier>.stride + MemoryLayout<Int>.stride)
            + types.capacity * MemoryLayout<TypeTraffic>.stride + types.reduce(0) { $0 + $1.estimatedBytes }
        let recipientBytes = recipients.estimatedBytes
        let queueBytes =
            queues.capacity * (MemoryLayout<String>.stride + MemoryLayout<QueueTraffic>.stride)
            + queues.values.reduce(0) { $0 + $1.estimatedBytes }
        let histogramBytes = histograms.reduce(0) { $0 + $1.estimatedFootprintInBytes }
        return MemoryLayout<Self>.stride + typeBytes + recipientBytes + queueBytes + histogramBytes
    }
}
