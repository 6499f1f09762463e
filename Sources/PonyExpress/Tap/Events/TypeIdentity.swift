/// A Swift type seen by the post office: a mail type, a recipient's class or a sender's class.
///
/// It carries the metatype itself, so events stay cheap to create; the name is built only when you ask for it.
public struct TypeIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The type.
    public let type: any Any.Type

    /// Wraps a type.
    public init(_ type: any Any.Type) {
        self.type = type
    }

    /// The type's name without its module, such as `LoginEvent` or `Cart.Update`.
    public var name: String { String(describing: type) }

    /// The type's fully qualified name, such as `MyApp.LoginEvent`.
    public var qualifiedName: String { String(reflecting: type) }

    public var description: String { name }

    public static func == (lhs: TypeIdentity, rhs: TypeIdentity) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type))
    }
}
