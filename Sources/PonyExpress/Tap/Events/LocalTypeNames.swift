/// The names of the process's own types, each built once: `String(describing:)` and `String(reflecting:)` of a
/// metatype walk its metadata on every call, and a snapshot of 1,000 mail types sorts by and encodes every name.
///
/// Holds one pair of strings per type ever named, which the process's types bound.
enum LocalTypeNames {
    private static let cache = Locked<[ObjectIdentifier: (name: String, qualifiedName: String)]>([:])

    /// The short and fully qualified names of `type`.
    static func names(of type: any Any.Type) -> (name: String, qualifiedName: String) {
        let key = ObjectIdentifier(type)
        if let names = cache.withLock({ $0[key] }) { return names }
        let names = (name: String(describing: type), qualifiedName: String(reflecting: type))
        cache.withLock { $0[key] = names }
        return names
    }
}
