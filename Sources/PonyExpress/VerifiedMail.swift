/// Mail that names the type of object that must post it.
///
/// ``Mail`` may be posted by anyone, or by no one. `VerifiedMail` declares a `RequiredSender`, and the compiler holds
/// every post to it: ``PostOffice/post(_:sender:)-(_,M.RequiredSender)`` takes a `RequiredSender` (or an instance of
/// a subclass), never `nil` and never an object of another type, so a recipient can rely on who sent it.
///
/// ```swift
/// final class Downloader {}
///
/// struct DownloadFinished: VerifiedMail {
///     typealias RequiredSender = Downloader
///     var bytes: Int
/// }
///
/// let downloader = Downloader()
/// PostOffice.default.register { (mail: DownloadFinished, sender: Downloader) in
///     print("\(mail.bytes) bytes")
/// }
/// PostOffice.default.post(DownloadFinished(bytes: 512), sender: downloader)
/// // PostOffice.default.post(DownloadFinished(bytes: 512))   // does not compile: the sender is required
/// ```
///
/// `VerifiedMail` is kept apart from ``Mail``: a verified type is posted and registered only through the overloads
/// that know its sender, and a type should conform to one of the two, not both. Recipients register in the shapes
/// they use for `Mail`: the mail and its `RequiredSender`, the mail alone, or no parameters; with or without
/// `queue:`, an exact `sender:` (which must be a `RequiredSender`) and ``RegistrationOptions``. Taps see it like any
/// other mail, and ``RecipientInfo/requiredSender`` names its sender type.
///
/// The handler shape with an optional sender, `(mail, RequiredSender?)`, is deprecated, as in the original
/// PonyExpress: the sender is never `nil`. It is kept so that code written for the original compiles, with a
/// warning that says to take `RequiredSender`.
///
/// A registration for a class receives mail of that class and of its subclasses, which inherit its
/// `RequiredSender`.
public protocol VerifiedMail: _PostableMail {
    /// The type of object that posts this mail. A subclass of it may post it too.
    associatedtype RequiredSender: AnyObject
}

/// The sender type a mail type requires, when it is ``VerifiedMail``; `nil` for ``Mail``.
///
/// Looked up only when a registration is described (for taps and ``PostOffice/recipients()``), so that registering
/// and posting pay nothing for it.
func requiredSenderType(of mailType: any Any.Type) -> (any AnyObject.Type)? {
    guard let verified = mailType as? any VerifiedMail.Type else { return nil }
    func requiredSender<Verified: VerifiedMail>(_: Verified.Type) -> any AnyObject.Type { Verified.RequiredSender.self }
    return requiredSender(verified)
}
