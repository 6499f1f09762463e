/// A demo object that posts mail: the runner keeps a few instances of each sender class and posts on their behalf,
/// so that recipients can filter on the sender's type or on one exact instance.
public protocol DemoSender: AnyObject, Sendable {
    /// Which instance of its class this is, from 0.
    var instance: Int { get }
    /// Creates the instance numbered `instance`.
    init(instance: Int)
}
