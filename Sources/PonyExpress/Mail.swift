/// A value that can be posted through a ``PostOffice``.
///
/// `Mail` has no requirements: conform any struct, enum or class and post it. Recipients say which type they want
/// and receive exactly that type, so there are no notification names and no `userInfo` dictionaries to decode.
///
/// ```swift
/// struct ExampleNotification: Mail {
///     var info: Int
///     var other: Float
/// }
///
/// PostOffice.default.post(ExampleNotification(info: 12, other: 15))
/// ```
///
/// A registration for a class receives mail of that class and of its subclasses, never of a superclass.
/// A registration for a protocol that refines `Mail` receives every posted value that conforms to it.
public protocol Mail: SendableMetatype {}

/// An object that receives one type of mail through a method named `receive(mail:)`.
///
/// Conforming lets you register the object itself, without naming a method:
///
/// ```swift
/// final class Inbox: MailRecipient {
///     func receive(mail: ExampleNotification) { ... }
/// }
/// let inbox = Inbox()
/// let id = PostOffice.default.register(inbox)
/// ```
///
/// The object is held weakly, like every object registered with a method.
public protocol MailRecipient: AnyObject, SendableMetatype {
    /// The type of mail this recipient receives.
    associatedtype Contents: Mail
    /// Called once for every delivered piece of mail.
    func receive(mail: Contents)
}
