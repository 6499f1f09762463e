/// Each hand-written type's place in the decoder's caches of field names.
enum HandWrittenFields {
    static let mailTypeStats = 0
    static let recipientCounts = 1
    static let latencySummary = 2
    static let latencyBucket = 3
    static let siteStats = 4
    static let sourceLocation = 5
    static let lifetimeSummary = 6
    static let recipientStats = 7
    static let postedTypeDeliveries = 8
    static let recipientKind = 9
    static let senderFilter = 10
    static let associatedValue = 11
    static let recipientId = 12
    static let relayFigures = 13
    static let recipientInfo = 14
    static let scopeCounts = 15
}
