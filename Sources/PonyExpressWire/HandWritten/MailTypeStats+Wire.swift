import PonyExpress
import PonyExpressMonitor

extension MailTypeStats {
    enum WireField: String, CaseIterable, Sendable {
        case mailType, posts, bridged, deliveries, skipped, pruned, postsPerSecond, deliveriesPerSecond
        case postsPerSecondLong, deliveriesPerSecondLong, history, recipients, handlerLatency, queueWait, superclasses
        case inheritedRecipients, relay
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.mailTypeStats)

    /// Writes the statistics: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.mailType.rawValue)
            writer.type(mailType)
            writer.key(WireField.posts.rawValue)
            writer.unsigned(posts)
            // Left out when 0, as wire 1.1 and earlier, which had no bridge, leave it.
            if bridged > 0 {
                writer.key(WireField.bridged.rawValue)
                writer.unsigned(bridged)
            }
            writer.key(WireField.deliveries.rawValue)
            writer.unsigned(deliveries)
            writer.key(WireField.skipped.rawValue)
            writer.unsigned(skipped)
            writer.key(WireField.pruned.rawValue)
            writer.unsigned(pruned)
            writer.key(WireField.postsPerSecond.rawValue)
            writer.double(postsPerSecond)
            writer.key(WireField.deliveriesPerSecond.rawValue)
            writer.double(deliveriesPerSecond)
            writer.key(WireField.postsPerSecondLong.rawValue)
            writer.double(postsPerSecondLong)
            writer.key(WireField.deliveriesPerSecondLong.rawValue)
            writer.double(deliveriesPerSecondLong)
            writer.key(WireField.history.rawValue)
            writer.doubles(history)
            writer.key(WireField.recipients.rawValue)
            recipients.write(to: &writer)
            writer.key(WireField.handlerLatency.rawValue)
            handlerLatency.write(to: &writer)
            writer.key(WireField.queueWait.rawValue)
            queueWait.write(to: &writer)
            writer.key(WireField.superclasses.rawValue)
            writer.container { writer in
                for superclass in superclasses {
                    writer.element()
                    writer.type(superclass)
                }
            }
            writer.key(WireField.inheritedRecipients.rawValue)
            writer.signed(Int64(inheritedRecipients))
            if let relay {
                writer.key(WireField.relay.rawValue)
                relay.write(to: &writer)
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var mailType: TypeIdentity?
        var posts: UInt64?
        var bridgedPosts: UInt64?
        var deliveries: UInt64?
        var skipped: UInt64?
        var pruned: UInt64?
        var postsPerSecond: Double?
        var deliveriesPerSecond: Double?
        var postsPerSecondLong: Double?
        var deliveriesPerSecondLong: Double?
        var history: [Double]?
        var recipients: RecipientCounts?
        var handlerLatency: LatencySummary?
        var queueWait: LatencySummary?
        var superclasses: [TypeIdentity]?
        var inheritedRecipients: Int?
        var relay: RelayFigures?
        let what: StaticString = "a mail type's statistics"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .mailType: if mailType == nil { mailType = try wire.type(slot, what) }
            case .posts: if posts == nil { posts = try wire.unsigned(slot, what) }
            case .bridged: if bridgedPosts == nil { bridgedPosts = try wire.unsigned(slot, what) }
            case .deliveries: if deliveries == nil { deliveries = try wire.unsigned(slot, what) }
            case .skipped: if skipped == nil { skipped = try wire.unsigned(slot, what) }
            case .pruned: if pruned == nil { pruned = try wire.unsigned(slot, what) }
            case .postsPerSecond: if postsPerSecond == nil { postsPerSecond = try wire.double(slot, what) }
            case .deliveriesPerSecond:
                if deliveriesPerSecond == nil { deliveriesPerSecond = try wire.double(slot, what) }
            case .postsPerSecondLong:
                if postsPerSecondLong == nil { postsPerSecondLong = try wire.double(slot, what) }
            case .deliveriesPerSecondLong:
                if deliveriesPerSecondLong == nil { deliveriesPerSecondLong = try wire.double(slot, what) }
            case .history: if history == nil { history = try wire.doubles(slot, what) }
            case .recipients: if recipients == nil { recipients = try RecipientCounts(wire: wire, slot: slot) }
            case .handlerLatency:
                if handlerLatency == nil { handlerLatency = try LatencySummary(wire: wire, slot: slot) }
            case .queueWait: if queueWait == nil { queueWait = try LatencySummary(wire: wire, slot: slot) }
            case .superclasses:
                if superclasses == nil {
                    var read: [TypeIdentity] = []
                    try wire.forEachElement(in: slot, what) { read.append(try wire.type($0, what)) }
                    superclasses = read
                }
            case .inheritedRecipients:
                if inheritedRecipients == nil { inheritedRecipients = try wire.int(slot, what) }
            case .relay: if relay == nil { relay = try RelayFigures(wire: wire, slot: slot) }
            }
        }
        self.init(
            mailType: try WireFields.required(mailType, what, "mailType"),
            posts: try WireFields.required(posts, what, "posts"),
            deliveries: try WireFields.required(deliveries, what, "deliveries"),
            skipped: try WireFields.required(skipped, what, "skipped"),
            pruned: try WireFields.required(pruned, what, "pruned"),
            postsPerSecond: try WireFields.required(postsPerSecond, what, "postsPerSecond"),
            deliveriesPerSecond: try WireFields.required(deliveriesPerSecond, what, "deliveriesPerSecond"),
            postsPerSecondLong: try WireFields.required(postsPerSecondLong, what, "postsPerSecondLong"),
            deliveriesPerSecondLong: try WireFields.required(deliveriesPerSecondLong, what, "deliveriesPerSecondLong"),
            history: try WireFields.required(history, what, "history"),
            recipients: try WireFields.required(recipients, what, "recipients"),
            handlerLatency: try WireFields.required(handlerLatency, what, "handlerLatency"),
            queueWait: try WireFields.required(queueWait, what, "queueWait"),
            superclasses: try WireFields.required(superclasses, what, "superclasses"),
            inheritedRecipients: try WireFields.required(inheritedRecipients, what, "inheritedRecipients"),
            // Absent when none, and from 1.0 and 1.1 peers and recordings, which had no bridge.
            bridgedPosts: bridgedPosts, relay: relay)
    }
}

extension RecipientCounts {
    enum WireField: String, CaseIterable, Sendable {
        case total, objects, blocks, byQueue
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.recipientCounts)

    /// Writes the counts; ``byQueue`` as a keyed container, in the dictionary's order, as `Dictionary` encodes itself.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.total.rawValue)
            writer.signed(Int64(total))
            writer.key(WireField.objects.rawValue)
            writer.signed(Int64(objects))
            writer.key(WireField.blocks.rawValue)
            writer.signed(Int64(blocks))
            writer.key(WireField.byQueue.rawValue)
            writer.container { writer in
                for (label, count) in byQueue {
                    writer.key(label)
                    writer.signed(Int64(count))
                }
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var total: Int?
        var objects: Int?
        var blocks: Int?
        var byQueue: [String: Int]?
        let what: StaticString = "recipient counts"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .total: if total == nil { total = try wire.int(slot, what) }
            case .objects: if objects == nil { objects = try wire.int(slot, what) }
            case .blocks: if blocks == nil { blocks = try wire.int(slot, what) }
            case .byQueue: if byQueue == nil { byQueue = try wire.intsByName(slot, what) }
            }
        }
        self.init(
            total: try WireFields.required(total, what, "total"),
            objects: try WireFields.required(objects, what, "objects"),
            blocks: try WireFields.required(blocks, what, "blocks"),
            byQueue: try WireFields.required(byQueue, what, "byQueue"))
    }
}
