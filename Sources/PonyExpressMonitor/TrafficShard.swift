import PonyExpress

/// One of the lock-striped shards the hot path records into; posting threads are spread over the shards by a hash
/// of the thread, so that they rarely wait for each other. Everything is guarded by ``lock``.
final class TrafficShard: @unchecked Sendable {
    let lock = Lock()
    /// Traffic by posted type; types beyond the capacity all point to the one ``OtherMailTypes`` entry.
    var types: [ObjectIdentifier: TypeTraffic] = [:]
    /// The distinct entries of ``types``.
    var typeList: [TypeTraffic] = []
    /// Deliveries by recipient, for recipients the registry knows.
    var recipients: [RecipientId: RecipientTraffic] = [:]
    /// Queued deliveries by queue label.
    var queues: [String: QueueTraffic] = [:]

    /// Forgets all traffic. Call with ``lock`` held.
    func clear() {
        types.removeAll()
        typeList.removeAll()
        recipients.removeAll()
        queues.removeAll()
    }

    /// The bytes this shard takes. Call with ``lock`` held.
    var estimatedBytes: Int {
        let typeKeys = types.capacity * (MemoryLayout<ObjectIdentifier>.stride + MemoryLayout<TypeTraffic>.stride)
        let recipientKeys =
            recipients.capacity * (MemoryLayout<RecipientId>.stride + MemoryLayout<RecipientTraffic>.stride)
        let queueKeys = queues.capacity * (MemoryLayout<String>.stride + MemoryLayout<QueueTraffic>.stride)
        return 128 + typeKeys + typeList.reduce(0) { $0 + $1.estimatedBytes } + recipientKeys
            + recipients.count * RecipientTraffic.estimatedBytes + queueKeys
            + queues.values.reduce(0) { $0 + $1.estimatedBytes }
    }
}
