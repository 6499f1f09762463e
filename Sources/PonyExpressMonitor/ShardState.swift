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
        // Each buffer is reached once, so that it is checked for uniqueness once.
        let (handler, waits) = types.withUnsafeMutableBufferPointer { types in
            types[slot].deliveries &+= 1
            types[slot].seconds.add(1, lane: TypeTraffic.Lane.deliveries, second: second)
            return (types[slot].handlerHistogram, types[slot].waitHistogram)
        }
        guard handler >= 0, wait == nil || waits >= 0 else {
            return recordFirstDelivery(slot: slot, duration: duration, wait: wait)
        }
        histograms.withUnsafeMutableBufferPointer { histograms in
            histograms[handler].record(Swift.min(duration, LatencyHistogram.highestTrackable))
            if let wait { histograms[waits].record(Swift.min(wait, LatencyHistogram.highestTrackable)) }
        }
    }

    /// Counts `count` synchronous deliveries of the type in `slot` that ended in `second`; their handler times are
    /// recorded one by one with ``recordHandlerTime(_:slot:)``.
    @inline(__always)
    mutating func countDeliveries(_ count: UInt64, slot: Int, second: Int64) {
        types.withUnsafeMutableBufferPointer { types in
            types[slot].deliveries &+= count
            types[slot].seconds.add(count, lane: TypeTraffic.Lane.deliveries, second: second)
        }
    }

    /// Records the handler time of a synchronous delivery of the type in `slot`.
    @inline(__always)
    mutating func recordHandlerTime(_ duration: Nanoseconds, slot: Int) {
        var handler = types[slot].handlerHistogram
        if handler < 0 {
            handler = makeHistogram()
            types[slot].handlerHistogram = handler
        }
        histograms.withUnsafeMutableBufferPointer { histograms in
            _ = histograms[handler].record(Swift.min(duration, LatencyHistogram.highestTrackable))
        }
    }

    /// Counts a post of the type in `slot`.
    @inline(__always)
    mutating func recordPost(slot: Int, second: Int64) {
        count(\.posts, lane: TypeTraffic.Lane.posts, slot: slot, second: second)
    }

    /// Counts a post or a skip of the type in `slot`: its total and its second.
    @inline(__always)
    mutating func count(_ total: WritableKeyPath<TypeTraffic, UInt64>, lane: Int, slot: Int, second: Int64) {
        types.withUnsafeMutableBufferPointer { types in
            types[slot][keyPath: total] &+= 1
            types[slot].seconds.add(1, lane: lane, second: second)
        }
    }

    /// Records a delivery whose histograms are not made yet: the type's first delivery, or its first queued one.
    @inline(never)
    private mutating func recordFirstDelivery(slot: Int, duration: Nanoseconds, wait: Nanoseconds?) {
        if types[slot].handlerHistogram < 0 { types[slot].handlerHistogram = makeHistogram() }
        histograms[types[slot].handlerHistogram].record(Swift.min(duration, LatencyHistogram.highestTrackable))
        guard let wait else { return }
        if types[slot].waitHistogram < 0 { types[slot].waitHistogram = makeHistogram() }
        histograms[types[slot].waitHistogram].record(Swift.min(wait, LatencyHistogram.highestTrackable))
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
