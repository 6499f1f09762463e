extension RecipientInfo: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, mailType, kind, objectIdentifier, sender, queueLabel, site, registeredAt, options, isOverLimit
        case requiredSender, scopeName, scopeId
    }

    /// Decodes a registration of another process. Its ``objectIdentifier`` is the other process's: it tells two
    /// registrations of one object apart from two objects, and nothing more.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let object = try container.decodeIfPresent(UInt.self, forKey: .objectIdentifier)
        if object == 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .objectIdentifier, in: container, debugDescription: "an object identifier cannot be 0")
        }
        self.init(
            id: try container.decode(RecipientId.self, forKey: .id),
            mailType: try container.decode(TypeIdentity.self, forKey: .mailType),
            kind: try container.decode(RecipientKind.self, forKey: .kind),
            // An identifier is a non-null address, the same size as UInt.
            objectIdentifier: object.map { unsafeBitCast($0, to: ObjectIdentifier.self) },
            sender: try container.decode(SenderFilter.self, forKey: .sender),
            queueLabel: try container.decodeIfPresent(String.self, forKey: .queueLabel),
            site: try container.decode(SourceLocation.self, forKey: .site),
            registeredAt: try container.decode(Nanoseconds.self, forKey: .registeredAt),
            // Absent from the encodings of plain registrations, and of agents older than these fields.
            options: RegistrationOptions(rawValue: try container.decodeIfPresent(UInt8.self, forKey: .options) ?? 0),
            isOverLimit: try container.decodeIfPresent(Bool.self, forKey: .isOverLimit) ?? false,
            // Absent for `Mail`, and from agents older than `VerifiedMail`.
            requiredSender: try container.decodeIfPresent(TypeIdentity.self, forKey: .requiredSender),
            // Absent outside scopes. Flat, as the wire writes it: one schema for both encodings.
            scope: try Self.scope(
                name: container.decodeIfPresent(String.self, forKey: .scopeName),
                id: container.decodeIfPresent(UInt64.self, forKey: .scopeId), in: container))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(mailType, forKey: .mailType)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(objectIdentifier.map { UInt(bitPattern: $0) }, forKey: .objectIdentifier)
        try container.encode(sender, forKey: .sender)
        try container.encodeIfPresent(queueLabel, forKey: .queueLabel)
        try container.encode(site, forKey: .site)
        try container.encode(registeredAt, forKey: .registeredAt)
        if !options.isEmpty { try container.encode(options.rawValue, forKey: .options) }
        if isOverLimit { try container.encode(isOverLimit, forKey: .isOverLimit) }
        try container.encodeIfPresent(requiredSender, forKey: .requiredSender)
        if let scope {
            try container.encode(scope.name, forKey: .scopeName)
            try container.encode(scope.id, forKey: .scopeId)
        }
    }

    /// The scope of a decoded registration: both of its fields, or neither.
    private static func scope(
        name: String?, id: UInt64?, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> ScopeInfo? {
        switch (name, id) {
        case (let name?, let id?): return ScopeInfo(name: name, id: id)
        case (nil, nil): return nil
        default:
            throw DecodingError.dataCorruptedError(
                forKey: name == nil ? .scopeName : .scopeId, in: container,
                debugDescription: "a scope needs both its name and its id")
        }
    }
}
