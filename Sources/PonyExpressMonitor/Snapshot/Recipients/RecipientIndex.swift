import PonyExpress

/// A snapshot's live recipients in one array, grouped by registered mail type and in registration order within a
/// type, with the range of each type: one allocation however many recipients there are.
struct RecipientIndex: Sendable {
    let rows: [RecipientStats]
    let ranges: [TypeIdentity: Range<Int>]

    /// Indexes rows whose ranges are already known.
    init(rows: [RecipientStats], ranges: [TypeIdentity: Range<Int>]) {
        self.rows = rows
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

extension RecipientIndex: Codable {
    /// Decodes the rows and groups them again, so that ranges never come from the encoded data.
    init(from decoder: any Decoder) throws {
        let rows = try [RecipientStats](from: decoder)
        var byType: [TypeIdentity: [RecipientStats]] = [:]
        for row in rows { byType[row.info.mailType, default: []].append(row) }
        self.init(byType: byType)
    }

    /// Encodes the rows, grouped by mail type and in registration order within a type.
    func encode(to encoder: any Encoder) throws {
        try rows.encode(to: encoder)
    }
}
