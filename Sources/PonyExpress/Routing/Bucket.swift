/// All registrations for one registered mail type, in registration order.
final class Bucket {
    let mailType: any Any.Type
    /// Whether mail of a posted dynamic type belongs here: the registered type itself or one of its subclasses.
    let acceptsType: (_ type: any Any.Type) -> Bool
    /// Only read and changed under the post office's lock, so its accesses are not checked at run time as well.
    @exclusivity(unchecked) var registrations: ContiguousArray<Registration> = []
    /// The posted dynamic types whose mail comes here: the routes to drop when the bucket changes.
    @exclusivity(unchecked) var dependents: [ObjectIdentifier] = []

    init<Contents: SendableMetatype>(for _: Contents.Type) {
        mailType = Contents.self
        acceptsType = { $0 is Contents.Type }
    }

    /// Takes `registration` out and hands over the bucket's reference to it; `nil` when it is not here. The last one
    /// registered is the likeliest to go first; otherwise, since a bucket is in id order, it is found by binary
    /// search. Entries are compared and read unretained, so the search makes no reference-counting
    /// read-modify-write.
    func remove(_ registration: Unmanaged<Registration>) -> Registration? {
        let address = registration.toOpaque()
        let index = registrations.withUnsafeBufferPointer { buffer -> Int? in
            let entries = UnsafeRawBufferPointer(buffer).assumingMemoryBound(to: Unmanaged<Registration>.self)
            guard let last = entries.last else { return nil }
            if last.toOpaque() == address { return entries.count - 1 }
            let id = registration._withUnsafeGuaranteedRef(\.id)
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle]._withUnsafeGuaranteedRef(\.id) < id { low = middle + 1 } else { high = middle }
            }
            return low < entries.count && entries[low].toOpaque() == address ? low : nil
        }
        guard let index else { return nil }
        return index == registrations.count - 1 ? registrations.removeLast() : registrations.remove(at: index)
    }
}
