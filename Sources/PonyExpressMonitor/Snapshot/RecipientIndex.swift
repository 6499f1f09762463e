import PonyExpress

/// A snapshot's live recipients in one array, grouped by registered mail type and in registration order within a
/// type, with the range of each type: one allocation however many recipients there are.
struct RecipientIndex: Sendable {
    let rows: [RecipientStats]
    let ranges: [TypeIdentity: Range<Int>]

    /// Groups rows that are already ordered by mail type, then by id.
    init(orderedRows rows: [RecipientStats]) {
        self.rows = rows
        var ranges: [TypeIdentity: Range<Int>] = [:]
        var start = 0
        while start < rows.count {
            let mailType = rows[start].info.mailType
            var end = start + 1
            while end < rows.count, rows[end].info.mailType == mailType { end += 1 }
            ranges[mailType] = start..<end
            start = end
        }
        self.ranges = ranges
    }

    /// Indexes recipients given by mail type.
    init(byType: [TypeIdentity: [RecipientStats]]) {
        var rows: [RecipientStats] = []
        var ranges: [TypeIdentity: Range<Int>] = [:]
        for (mailType, recipients) in byType {
            ranges[mailType] = rows.count..<rows.count + recipients.count
            rows += recipients
        }
        self.rows = rows
        self.ranges = ranges
    }

    /// Every recipient that receives mail of `postedType`: those registered for it, then those registered for
    /// `superclasses` (nearest first), with what each received of `postedType`.
    func receivers(of postedType: TypeIdentity, superclasses: [TypeIdentity]) -> [ReceiverStats] {
        ([postedType] + superclasses).flatMap { registered in
            self[registered].map { recipient in
                let received = recipient.received(postedType)
                return ReceiverStats(
                    recipient: recipient, isInherited: registered != postedType, deliveries: received.deliveries,
                    handlerTime: received.handlerTime)
            }
        }
    }

    /// The recipients of one mail type, in registration order.
    subscript(mailType: TypeIdentity) -> ArraySlice<RecipientStats> {
        guard let range = ranges[mailType] else { return [] }
        return rows[range]
    }
}
