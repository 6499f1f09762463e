import Dispatch

/// Where a registration delivers: its queue, its weakly held object and its exact sender.
struct RegistrationTarget {
    let queue: DispatchQueue?
    let object: AnyObject?
    let exactSender: AnyObject?
}
