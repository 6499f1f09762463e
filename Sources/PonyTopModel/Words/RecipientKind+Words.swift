import PonyExpress

extension RecipientKind {
    /// `object` or `block`: how the report and a site's key name the kind.
    package var word: String { objectType == nil ? "block" : "object" }

    /// Who receives: the object type's name, or `block`.
    package var recipientName: String { objectType?.name ?? "block" }
}
