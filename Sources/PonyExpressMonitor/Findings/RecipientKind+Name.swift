import PonyExpress

extension RecipientKind {
    /// The object type's name, or `block`: what a finding calls the recipients of a site.
    var name: String { objectType?.name ?? "block" }
}
