/// How a registration behaves beyond its handler, queue and sender filter.
///
/// ```swift
/// office.keepLastMail(ReachabilityChanged.self)
/// // The reachability now, once: the kept mail at once if there is one, otherwise the next post.
/// office.register(options: [.once, .replay]) { (change: ReachabilityChanged) in show(change) }
/// ```
///
/// Every `register` overload, ``PostOffice/mail(_:sender:options:bufferingPolicy:file:filePath:line:)-(_,AnyObject?,_,_,_,_,_)``
/// included, takes these options; a plain registration passes none and pays nothing for them.
public struct RegistrationOptions: OptionSet, Hashable, Sendable {
    /// The options' bits.
    public let rawValue: UInt8

    /// Creates options from their raw bits.
    ///
    /// - Parameter rawValue: The bits; unknown bits are kept but mean nothing.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Deliver one mail, then unregister.
    ///
    /// The registration is claimed atomically just before its handler is called, so when several threads post at
    /// once exactly one of them delivers; the others skip it as unregistered. When the handler returns it is
    /// unregistered on the same thread: taps see `.unregistered`, then the run's `.delivered`.
    public static let once = RegistrationOptions(rawValue: 1 << 0)

    /// Deliver the mail the post office kept for the mail type at once, if there is one, on the registration's
    /// queue and through its sender filter; then every later post as usual.
    ///
    /// Only mail types that asked for it with ``PostOffice/keepLastMail(_:)`` keep mail; for other types there is
    /// nothing to replay and the option does nothing.
    public static let replay = RegistrationOptions(rawValue: 1 << 1)

    /// The registration is meant to outlive the scope it is made in (``MailScope``): it belongs to no scope, and is
    /// never reported as outliving one. For a cache filled during a request, or a registration handed out of its
    /// scope on purpose.
    public static let outlivesScope = RegistrationOptions(rawValue: 1 << 2)
}
