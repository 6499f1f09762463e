import PonyExpressMonitor

extension LatencySummary {
    enum WireField: String, CaseIterable, Sendable {
        case count, p50, p90, p99, p999, max, buckets
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.latencySummary)

    /// Writes the summary: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.count.rawValue)
            writer.unsigned(count)
            writer.key(WireField.p50.rawValue)
            writer.unsigned(p50)
            writer.key(WireField.p90.rawValue)
            writer.unsigned(p90)
            writer.key(WireField.p99.rawValue)
            writer.unsigned(p99)
            writer.key(WireField.p999.rawValue)
            writer.unsigned(p999)
            writer.key(WireField.max.rawValue)
            writer.unsigned(max)
            writer.key(WireField.buckets.rawValue)
            writer.container { writer in
                for bucket in buckets {
                    writer.element()
                    bucket.write(to: &writer)
                }
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var count: UInt64?
        var p50: UInt64?
        var p90: UInt64?
        var p99: UInt64?
        var p999: UInt64?
        var max: UInt64?
        var buckets: [LatencyBucket]?
        let what: StaticString = "a latency summary"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .count: if count == nil { count = try wire.unsigned(slot, what) }
            case .p50: if p50 == nil { p50 = try wire.unsigned(slot, what) }
            case .p90: if p90 == nil { p90 = try wire.unsigned(slot, what) }
            case .p99: if p99 == nil { p99 = try wire.unsigned(slot, what) }
            case .p999: if p999 == nil { p999 = try wire.unsigned(slot, what) }
            case .max: if max == nil { max = try wire.unsigned(slot, what) }
            case .buckets:
                if buckets == nil {
                    var read: [LatencyBucket] = []
                    try wire.forEachElement(in: slot, what, reserve: { read.reserveCapacity($0) }) {
                        read.append(try LatencyBucket(wire: wire, slot: $0))
                    }
                    buckets = read
                }
            }
        }
        self.init(
            count: try WireFields.required(count, what, "count"), p50: try WireFields.required(p50, what, "p50"),
            p90: try WireFields.required(p90, what, "p90"), p99: try WireFields.required(p99, what, "p99"),
            p999: try WireFields.required(p999, what, "p999"), max: try WireFields.required(max, what, "max"),
            buckets: try WireFields.required(buckets, what, "buckets"))
    }
}

extension LatencyBucket {
    enum WireField: String, CaseIterable, Sendable {
        case upperBound, count
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.latencyBucket)

    /// Writes the bucket: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.upperBound.rawValue)
            writer.unsigned(upperBound)
            writer.key(WireField.count.rawValue)
            writer.unsigned(count)
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var upperBound: UInt64?
        var count: UInt64?
        let what: StaticString = "a latency bucket"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .upperBound: if upperBound == nil { upperBound = try wire.unsigned(slot, what) }
            case .count: if count == nil { count = try wire.unsigned(slot, what) }
            }
        }
        self.init(
            upperBound: try WireFields.required(upperBound, what, "upperBound"),
            count: try WireFields.required(count, what, "count"))
    }
}
