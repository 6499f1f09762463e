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
