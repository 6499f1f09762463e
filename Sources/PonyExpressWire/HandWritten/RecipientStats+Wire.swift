import PonyExpress
import PonyExpressMonitor

extension RecipientStats {
    enum WireField: String, CaseIterable, Sendable {
        case info, deliveries, handlerLatency, isDuplicate, handlerTime, maxHandlerTime, deliveriesByPostedType
        case replays
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.recipientStats)

    /// Writes the statistics: no entry for a `nil` latency or no replays.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.info.rawValue)
            info.write(to: &writer)
            writer.key(WireField.deliveries.rawValue)
            writer.unsigned(deliveries)
            if let handlerLatency {
                writer.key(WireField.handlerLatency.rawValue)
                handlerLatency.write(to: &writer)
            }
            writer.key(WireField.isDuplicate.rawValue)
            writer.bool(isDuplicate)
            writer.key(WireField.handlerTime.rawValue)
            writer.unsigned(handlerTime)
            writer.key(WireField.maxHandlerTime.rawValue)
            writer.unsigned(maxHandlerTime)
            writer.key(WireField.deliveriesByPostedType.rawValue)
            writer.container { writer in
                for posted in deliveriesByPostedType {
                    writer.element()
                    posted.write(to: &writer)
                }
            }
            if replays != 0 {
                writer.key(WireField.replays.rawValue)
                writer.unsigned(replays)
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote; ``replays`` is absent from snapshots of agents older than it, and reads 0.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var info: RecipientInfo?
        var deliveries: UInt64?
        var handlerLatency: LatencySummary??
        var isDuplicate: Bool?
        var handlerTime: Nanoseconds?
        var maxHandlerTime: Nanoseconds?
        var deliveriesByPostedType: [PostedTypeDeliveries]?
        var replays: UInt64??
        let what: StaticString = "a recipient's statistics"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .info: if info == nil { info = try RecipientInfo(wire: wire, slot: slot) }
            case .deliveries: if deliveries == nil { deliveries = try wire.unsigned(slot, what) }
            case .handlerLatency:
                if handlerLatency == nil {
                    handlerLatency = .some(try slot.map { try LatencySummary(wire: wire, slot: $0) })
                }
            case .isDuplicate: if isDuplicate == nil { isDuplicate = try wire.bool(slot, what) }
            case .handlerTime: if handlerTime == nil { handlerTime = try wire.unsigned(slot, what) }
            case .maxHandlerTime: if maxHandlerTime == nil { maxHandlerTime = try wire.unsigned(slot, what) }
            case .deliveriesByPostedType:
                if deliveriesByPostedType == nil {
                    var read: [PostedTypeDeliveries] = []
                    try wire.forEachElement(in: slot, what) {
                        read.append(try PostedTypeDeliveries(wire: wire, slot: $0))
                    }
                    deliveriesByPostedType = read
                }
            case .replays: if replays == nil { replays = .some(try slot.map { try wire.unsigned($0, what) }) }
            }
        }
        self.init(
            info: try WireFields.required(info, what, "info"),
            deliveries: try WireFields.required(deliveries, what, "deliveries"), handlerLatency: handlerLatency ?? nil,
            isDuplicate: try WireFields.required(isDuplicate, what, "isDuplicate"),
            handlerTime: try WireFields.required(handlerTime, what, "handlerTime"),
            maxHandlerTime: try WireFields.required(maxHandlerTime, what, "maxHandlerTime"),
            deliveriesByPostedType: try WireFields.required(deliveriesByPostedType, what, "deliveriesByPostedType"),
            replays: (replays ?? nil) ?? 0)
    }
}

extension PostedTypeDeliveries {
    enum WireField: String, CaseIterable, Sendable {
        case mailType, deliveries, handlerTime
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.postedTypeDeliveries)

    /// Writes the deliveries: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.mailType.rawValue)
            writer.type(mailType)
            writer.key(WireField.deliveries.rawValue)
            writer.unsigned(deliveries)
            writer.key(WireField.handlerTime.rawValue)
            writer.unsigned(handlerTime)
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var mailType: TypeIdentity?
        var deliveries: UInt64?
        var handlerTime: Nanoseconds?
        let what: StaticString = "deliveries of a posted type"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .mailType: if mailType == nil { mailType = try wire.type(slot, what) }
            case .deliveries: if deliveries == nil { deliveries = try wire.unsigned(slot, what) }
            case .handlerTime: if handlerTime == nil { handlerTime = try wire.unsigned(slot, what) }
            }
        }
        self.init(
            mailType: try WireFields.required(mailType, what, "mailType"),
            deliveries: try WireFields.required(deliveries, what, "deliveries"),
            handlerTime: try WireFields.required(handlerTime, what, "handlerTime"))
    }
}
