/// The names of a type of another process: what a ``TypeIdentity`` decoded from a snapshot carries.
///
/// Interned for the life of the process, so that equal names are one box and a ``TypeIdentity`` stays one word.
package final class TypeNames: Sendable {
    /// The most distinct pairs of names kept: a peer sending endless new names cannot take endless memory.
    package static let capacity = 1 << 20

    private static let table = Locked<[Key: Unmanaged<TypeNames>]>([:])

    private struct Key: Hashable {
        let name: String
        let qualifiedName: String
    }

    let name: String
    let qualifiedName: String

    private init(name: String, qualifiedName: String) {
        self.name = name
        self.qualifiedName = qualifiedName
    }

    /// The one box for these names, or `nil` when ``capacity`` boxes exist already.
    static func interned(name: String, qualifiedName: String) -> Unmanaged<TypeNames>? {
        let key = Key(name: name, qualifiedName: qualifiedName)
        return table.withLock { table in
            if let names = table[key] { return names }
            guard table.count < capacity else { return nil }
            let names = Unmanaged.passRetained(TypeNames(name: name, qualifiedName: qualifiedName))
            table[key] = names
            return names
        }
    }
}
