/// What a post of one dynamic type needs: the registrations it goes to, merged across the buckets it matches in
/// registration order, and the taps to report to. Immutable: a post takes it under the lock and delivers from it
/// after releasing the lock.
final class Route: @unchecked Sendable {
    let registrations: ContiguousArray<Registration>
    /// The taps attached when the route was built, or `nil` when there were none.
    let taps: TapList?
    /// The posted dynamic type.
    let mailType: TypeIdentity
    /// Whether the posted type is a class, whose instances may be of a subclass with a route of its own.
    let isClassMail: Bool

    init(registrations: ContiguousArray<Registration>, taps: TapList?, mailType: any Any.Type) {
        self.registrations = registrations
        self.taps = taps
        self.mailType = TypeIdentity(mailType)
        self.isClassMail = mailType is AnyClass
    }
}
