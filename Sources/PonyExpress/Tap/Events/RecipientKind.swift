/// How a recipient was registered.
public enum RecipientKind: Hashable, Sendable, Codable {
    /// An object and one of its methods; the object is held weakly.
    case object(TypeIdentity)
    /// A closure, held strongly until unregistered.
    case block

    /// The recipient object's type, or `nil` for a block.
    public var objectType: TypeIdentity? {
        if case .object(let type) = self { return type }
        return nil
    }
}
