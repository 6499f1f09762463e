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
/// Registering for a protocol is not offered: a protocol's existential does not conform to `Mail`, so it cannot
/// stand where `M: Mail` is required. Register for a common base class instead.
///
/// `Mail` refines `SendableMetatype` (Swift 6.2), through `_PostableMail`, so that the post office may pass the type
/// itself between threads; the values need not be `Sendable`. Mail that must name its sender is ``VerifiedMail``.
public protocol Mail: _PostableMail {}

/// What ``Mail`` and ``VerifiedMail`` have in common: the post office keeps, limits and describes either kind.
///
/// Public only so that ``PostOffice/keepLastMail(_:)`` and its like can take both kinds in one method. Conform to
/// ``Mail`` or ``VerifiedMail``, never to this alone: only their overloads post and register.
public protocol _PostableMail: SendableMetatype {}
