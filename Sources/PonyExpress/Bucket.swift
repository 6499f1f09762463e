/// All registrations for one registered mail type, in registration order.
final class Bucket {
    let mailType: any Any.Type
    /// Whether mail of a posted dynamic type belongs here: the registered type itself or one of its subclasses.
    let acceptsType: (_ type: any Any.Type) -> Bool
    var registrations: ContiguousArray<Registration> = []

    init<Contents: Mail>(for _: Contents.Type) {
        mailType = Contents.self
        acceptsType = { $0 is Contents.Type }
    }
}

/// The registrations a post of one dynamic type goes to, merged across the buckets it matches, in registration
/// order. Immutable: a post takes it under the lock and delivers from it after releasing the lock.
final class Route: @unchecked Sendable {
    let registrations: ContiguousArray<Registration>

    init(registrations: ContiguousArray<Registration>) {
        self.registrations = registrations
    }
}
