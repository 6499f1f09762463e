/// All registrations for one registered mail type, in registration order.
final class Bucket {
    let mailType: any Any.Type
    /// Whether mail of a posted dynamic type belongs here: the registered type itself or one of its subclasses.
    let acceptsType: (_ type: any Any.Type) -> Bool
    var registrations: ContiguousArray<Registration> = []
    /// Whether a once registration was ever added: only then do posts through it look for one. Never cleared.
    var hasOnce = false

    init<Contents: Mail>(for _: Contents.Type) {
        mailType = Contents.self
        acceptsType = { $0 is Contents.Type }
    }
}
