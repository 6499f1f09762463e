import PonyExpress

/// The name of an enum case's one associated value on the wire (the name synthesized `Codable` conformances give it,
/// which the wire kept when it stopped encoding these types through them).
enum AssociatedValue: String, CaseIterable, Sendable {
    case _0

    static let wireFields = WireFieldNames<AssociatedValue>(id: HandWrittenFields.associatedValue)
}

extension WireWriter {
    /// Writes an enum case in the shape synthesized `Codable` conformances give one: an entry named after the case,
    /// holding a keyed container of its associated value, if any.
    mutating func enumCase(_ name: String, slot: Bool, associatedType: TypeIdentity?) {
        container(slot: slot) { writer in
            writer.key(name)
            writer.container { writer in
                if let associatedType {
                    writer.key(AssociatedValue._0.rawValue)
                    writer.type(associatedType)
                }
            }
        }
    }
}

extension RecipientKind {
    enum WireCase: String, CaseIterable, Sendable {
        case object, block
    }

    static let wireCases = WireFieldNames<WireCase>(id: HandWrittenFields.recipientKind)

    /// Writes the kind: an entry named after its ``WireCase``, holding its type if it has one.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        switch self {
        case .object(let type): writer.enumCase(WireCase.object.rawValue, slot: slot, associatedType: type)
        case .block: writer.enumCase(WireCase.block.rawValue, slot: slot, associatedType: nil)
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        let what: StaticString = "a recipient kind"
        let (found, payload) = try wire.enumCase(in: slot, of: Self.wireCases, what)
        switch found {
        case .object: self = .object(try wire.associatedType(payload, what))
        case .block:
            try wire.noAssociatedValue(payload, what)
            self = .block
        }
    }
}

extension SenderFilter {
    enum WireCase: String, CaseIterable, Sendable {
        case any, optional, required, exact
    }

    static let wireCases = WireFieldNames<WireCase>(id: HandWrittenFields.senderFilter)

    /// Writes the filter: an entry named after its ``WireCase``, holding its type if it has one.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        switch self {
        case .any: writer.enumCase(WireCase.any.rawValue, slot: slot, associatedType: nil)
        case .optional(let type): writer.enumCase(WireCase.optional.rawValue, slot: slot, associatedType: type)
        case .required(let type): writer.enumCase(WireCase.required.rawValue, slot: slot, associatedType: type)
        case .exact(let type): writer.enumCase(WireCase.exact.rawValue, slot: slot, associatedType: type)
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        let what: StaticString = "a sender filter"
        let (found, payload) = try wire.enumCase(in: slot, of: Self.wireCases, what)
        switch found {
        case .any:
            try wire.noAssociatedValue(payload, what)
            self = .any
        case .optional: self = .optional(try wire.associatedType(payload, what))
        case .required: self = .required(try wire.associatedType(payload, what))
        case .exact: self = .exact(try wire.associatedType(payload, what))
        }
    }
}
