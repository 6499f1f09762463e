extension TypeIdentity: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, qualifiedName
    }

    /// Decodes a type of another process: the result carries the names only (see ``isNameOnly``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let qualifiedName = try container.decode(String.self, forKey: .qualifiedName)
        guard let identity = TypeIdentity(name: name, qualifiedName: qualifiedName) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "more than \(TypeNames.capacity) distinct type names"))
        }
        self = identity
    }

    /// Encodes the type's names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(qualifiedName, forKey: .qualifiedName)
    }
}
