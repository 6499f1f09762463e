import PonyExpress

extension RecipientInfo {
    /// The field names of `RecipientInfo`'s `Encodable` conformance, in its order.
    enum WireField: String, Sendable {
        case id, mailType, kind, objectIdentifier, sender, queueLabel, site, registeredAt, options, isOverLimit
        case requiredSender
    }

    /// Writes the registration as its `Encodable` conformance does: no entry for a `nil` object or queue, empty
    /// options or a registration within its limit. It is read through that conformance, whose nested values (id,
    /// kind, sender filter, site) take their hand-written decodings.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.id.rawValue)
            id.write(to: &writer)
            writer.key(WireField.mailType.rawValue)
            writer.type(mailType)
            writer.key(WireField.kind.rawValue)
            kind.write(to: &writer)
            if let objectIdentifier {
                writer.key(WireField.objectIdentifier.rawValue)
                writer.unsigned(UInt64(UInt(bitPattern: objectIdentifier)))
            }
            writer.key(WireField.sender.rawValue)
            sender.write(to: &writer)
            if let queueLabel {
                writer.key(WireField.queueLabel.rawValue)
                writer.string(queueLabel)
            }
            writer.key(WireField.site.rawValue)
            site.write(to: &writer)
            writer.key(WireField.registeredAt.rawValue)
            writer.unsigned(registeredAt)
            if !options.isEmpty {
                writer.key(WireField.options.rawValue)
                writer.unsigned(UInt64(options.rawValue))
            }
            if isOverLimit {
                writer.key(WireField.isOverLimit.rawValue)
                writer.bool(isOverLimit)
            }
            if let requiredSender {
                writer.key(WireField.requiredSender.rawValue)
                writer.type(requiredSender)
            }
        }
    }
}

extension RecipientId {
    enum WireField: String, CaseIterable, Sendable {
        case rawValue
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.recipientId)

    /// Writes the id as its synthesized `Encodable` conformance does.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.rawValue.rawValue)
            writer.unsigned(rawValue)
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var rawValue: UInt64?
        let what: StaticString = "a recipient id"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { _, slot in
            if rawValue == nil { rawValue = try wire.unsigned(slot, what) }
        }
        self.init(rawValue: try WireFields.required(rawValue, what, "rawValue"))
    }
}
