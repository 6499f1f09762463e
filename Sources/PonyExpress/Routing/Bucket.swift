/// All registrations for one registered mail type, in registration order.
final class Bucket {
    let mailType: any Any.Type
    /// Whether mail of a posted dynamic type belongs here: the registered type itself or one of its subclasses.
    let acceptsType: (_ type: any Any.Type) -> Bool
    /// Only read and changed under the post office's lock, so its accesses are not checked at run time as well.
    @exclusivity(unchecked) var registrations: ContiguousArray<Registration> = []
    /// The posted dynamic types whose mail comes here: the routes to drop when the bucket changes.
    @exclusivity(unchecked) var dependents: [ObjectIdentifier] = []

    init<Contents: Mail>(for _: Contents.Type) {
        mailType = Contents.self
        acceptsType = { $0 is Contents.Type }
    }
}
