import PonyExpress

extension RecipientInfo {
    enum WireField: String, CaseIterable, Sendable {
        case id, mailType, kind, objectIdentifier, sender, queueLabel, site, registeredAt, options, isOverLimit
        case requiredSender, scopeName, scopeId
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.recipientInfo)

    /// Writes the registration: no entry for a `nil` object or queue, empty options or a registration within its
    /// limit.
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
            if let scope {
                writer.key(WireField.scopeName.rawValue)
                writer.string(scope.name)
                writer.key(WireField.scopeId.rawValue)
                writer.unsigned(scope.id)
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote: a registration of another process. Its ``objectIdentifier`` is the other
    /// process's: it tells two registrations of one object apart from two objects, and nothing more. Options, the
    /// limit, the required sender and the scope are absent from plain registrations and from agents older than them.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var id: RecipientId?
        var mailType: TypeIdentity?
        var kind: RecipientKind?
        var objectIdentifier: UInt64??
        var sender: SenderFilter?
        var queueLabel: String??
        var site: SourceLocation?
        var registeredAt: Nanoseconds?
        var options: UInt64??
        var isOverLimit: Bool??
        var requiredSender: TypeIdentity??
        var scopeName: String?
        var scopeId: UInt64?
        let what: StaticString = "a registration"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .id: if id == nil { id = try RecipientId(wire: wire, slot: slot) }
            case .mailType: if mailType == nil { mailType = try wire.type(slot, what) }
            case .kind: if kind == nil { kind = try RecipientKind(wire: wire, slot: slot) }
            case .objectIdentifier:
                if objectIdentifier == nil { objectIdentifier = .some(try slot.map { try wire.unsigned($0, what) }) }
            case .sender: if sender == nil { sender = try SenderFilter(wire: wire, slot: slot) }
            case .queueLabel: if queueLabel == nil { queueLabel = .some(try slot.map { try wire.string($0, what) }) }
            case .site: if site == nil { site = try SourceLocation(wire: wire, slot: slot) }
            case .registeredAt: if registeredAt == nil { registeredAt = try wire.unsigned(slot, what) }
            case .options: if options == nil { options = .some(try slot.map { try wire.unsigned($0, what) }) }
            case .isOverLimit: if isOverLimit == nil { isOverLimit = .some(try slot.map { try wire.bool($0, what) }) }
            case .requiredSender:
                if requiredSender == nil { requiredSender = .some(try slot.map { try wire.type($0, what) }) }
            case .scopeName: if scopeName == nil { scopeName = try slot.map { try wire.string($0, what) } }
            case .scopeId: if scopeId == nil { scopeId = try slot.map { try wire.unsigned($0, what) } }
            }
        }
        let object = try (objectIdentifier ?? nil).map { value in
            guard let object = UInt(exactly: value) else {
                throw WireError.malformed("\(what): \(value) does not fit UInt")
            }
            guard object != 0 else { throw WireError.malformed("\(what): an object identifier cannot be 0") }
            return object
        }
        let rawOptions = options ?? nil
        guard let optionBits = UInt8(exactly: rawOptions ?? 0) else {
            throw WireError.malformed("\(what): \(rawOptions ?? 0) does not fit UInt8")
        }
        self.init(
            id: try WireFields.required(id, what, "id"), mailType: try WireFields.required(mailType, what, "mailType"),
            kind: try WireFields.required(kind, what, "kind"),
            // An identifier is a non-null address, the same size as UInt.
            objectIdentifier: object.map { unsafeBitCast($0, to: ObjectIdentifier.self) },
            sender: try WireFields.required(sender, what, "sender"), queueLabel: queueLabel ?? nil,
            site: try WireFields.required(site, what, "site"),
            registeredAt: try WireFields.required(registeredAt, what, "registeredAt"),
            options: RegistrationOptions(rawValue: optionBits), isOverLimit: (isOverLimit ?? nil) ?? false,
            requiredSender: requiredSender ?? nil,
            // Both or neither: absent outside scopes and from agents older than 1.4.
            scope: try scopeName.map { ScopeInfo(name: $0, id: try WireFields.required(scopeId, what, "scopeId")) })
    }
}

extension RecipientId {
    enum WireField: String, CaseIterable, Sendable {
        case rawValue
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.recipientId)

    /// Writes the id: a keyed container of its ``WireField``s, in their order.
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
