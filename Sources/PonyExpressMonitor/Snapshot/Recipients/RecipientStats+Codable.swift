import PonyExpress

extension RecipientStats: Codable {
    private enum CodingKeys: String, CodingKey {
        case info, deliveries, handlerLatency, isDuplicate, handlerTime, maxHandlerTime, deliveriesByPostedType
        case replays
    }

    /// Decodes recipient statistics; ``replays`` is absent from snapshots of agents older than it, and reads 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            info: try container.decode(RecipientInfo.self, forKey: .info),
            deliveries: try container.decode(UInt64.self, forKey: .deliveries),
            handlerLatency: try container.decodeIfPresent(LatencySummary.self, forKey: .handlerLatency),
            isDuplicate: try container.decode(Bool.self, forKey: .isDuplicate),
            handlerTime: try container.decode(Nanoseconds.self, forKey: .handlerTime),
            maxHandlerTime: try container.decode(Nanoseconds.self, forKey: .maxHandlerTime),
            deliveriesByPostedType: try container.decode(
                [PostedTypeDeliveries].self, forKey: .deliveriesByPostedType),
            replays: try container.decodeIfPresent(UInt64.self, forKey: .replays) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info, forKey: .info)
        try container.encode(deliveries, forKey: .deliveries)
        try container.encodeIfPresent(handlerLatency, forKey: .handlerLatency)
        try container.encode(isDuplicate, forKey: .isDuplicate)
        try container.encode(handlerTime, forKey: .handlerTime)
        try container.encode(maxHandlerTime, forKey: .maxHandlerTime)
        try container.encode(deliveriesByPostedType, forKey: .deliveriesByPostedType)
        if replays != 0 { try container.encode(replays, forKey: .replays) }
    }
}
