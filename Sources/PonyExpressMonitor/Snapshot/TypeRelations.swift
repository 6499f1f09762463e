import PonyExpress

/// Which class mail types are subclasses of which, worked out once per pair and remembered: the relation never
/// changes while the program runs.
struct TypeRelations {
    private struct Pair: Hashable {
        let type: ObjectIdentifier
        let ancestor: ObjectIdentifier
    }

    private var known: [Pair: Bool] = [:]

    /// Whether mail of `type` is delivered to recipients registered for `ancestor`, a different class.
    mutating func isSubclass(_ type: TypeIdentity, of ancestor: TypeIdentity) -> Bool {
        guard type != ancestor, type.type is AnyClass, ancestor.type is AnyClass else { return false }
        let pair = Pair(type: ObjectIdentifier(type.type), ancestor: ObjectIdentifier(ancestor.type))
        if let answer = known[pair] { return answer }
        let answer = (ancestor.type as? any _PostableMail.Type).map { receives($0, type.type) } ?? false
        if known.count >= 100_000 { known.removeAll() }
        known[pair] = answer
        return answer
    }

    /// For each class of `types`, its superclasses among `candidates`, nearest first; types without any are left out.
    mutating func superclasses(
        of types: some Sequence<TypeIdentity>, among candidates: some Collection<TypeIdentity>
    ) -> [TypeIdentity: [TypeIdentity]] {
        let classes = candidates.filter { $0.type is AnyClass }
        guard !classes.isEmpty else { return [:] }
        var result: [TypeIdentity: [TypeIdentity]] = [:]
        for type in types where type.type is AnyClass {
            var ancestors = classes.filter { isSubclass(type, of: $0) }
            guard !ancestors.isEmpty else { continue }
            ancestors.sort { isSubclass($0, of: $1) }
            result[type] = ancestors
        }
        return result
    }
}

/// Whether mail of dynamic type `posted` reaches a registration for `registered`.
private func receives<Registered: _PostableMail>(_ registered: Registered.Type, _ posted: any Any.Type) -> Bool {
    posted is Registered.Type
}
