/// A Swift type seen by the post office: a mail type, a recipient's class or a sender's class.
///
/// It carries the metatype itself, so events stay cheap to create; the name is built only when you ask for it.
/// A type identity decoded from a snapshot of another process (see ``init(from:)``) carries only the type's names.
public struct TypeIdentity: Hashable, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case local(any Any.Type)
        /// Interned: one box per distinct pair of names, never released, so copies stay plain words.
        case named(Unmanaged<TypeNames>)
    }

    private let storage: Storage

    /// Wraps a type.
    public init(_ type: any Any.Type) {
        storage = .local(type)
    }

    /// A type known only by its names, as a snapshot from another process describes it.
    ///
    /// Identities with the same names are equal. The names are kept for the life of the process, so the number of
    /// distinct names is bounded: `nil` once ``TypeNames/capacity`` distinct pairs exist.
    package init?(name: String, qualifiedName: String) {
        guard let names = TypeNames.interned(name: name, qualifiedName: qualifiedName) else { return nil }
        storage = .named(names)
    }

    /// The type; for a type known only by its names, a placeholder type shared by all of them.
    public var type: any Any.Type {
        switch storage {
        case .local(let type): type
        case .named: TypeNames.self
        }
    }

    /// Whether this is a type of another process, known only by its names.
    public var isNameOnly: Bool {
        if case .named = storage { return true }
        return false
    }

    /// The type's name without its module, such as `LoginEvent` or `Cart.Update`.
    public var name: String {
        switch storage {
        case .local(let type): LocalTypeNames.names(of: type).name
        case .named(let names): names.takeUnretainedValue().name
        }
    }

    /// The type's fully qualified name, such as `MyApp.LoginEvent`.
    public var qualifiedName: String {
        switch storage {
        case .local(let type): LocalTypeNames.names(of: type).qualifiedName
        case .named(let names): names.takeUnretainedValue().qualifiedName
        }
    }

    public var description: String { name }

    public static func == (lhs: TypeIdentity, rhs: TypeIdentity) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.local(let left), .local(let right)): ObjectIdentifier(left) == ObjectIdentifier(right)
        case (.named(let left), .named(let right)): left.toOpaque() == right.toOpaque()
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .local(let type): hasher.combine(ObjectIdentifier(type))
        case .named(let names): hasher.combine(names.toOpaque())
        }
    }
}
