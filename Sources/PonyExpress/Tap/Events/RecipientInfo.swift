/// A registration, as ``PostOffice/recipients(of:)`` and ``TapEvent/registered(_:)`` describe it.
public struct RecipientInfo: Hashable, Sendable {
    /// The registration's id.
    public let id: RecipientId
    /// The mail type the recipient registered for.
    public let mailType: TypeIdentity
    /// An object with a method, or a block.
    public let kind: RecipientKind
    /// The identity of the recipient object of a method registration, `nil` for a block.
    ///
    /// Two live registrations with the same identifier belong to the same object. Once the object is released its
    /// address, and so its identifier, may be reused by a new object.
    public let objectIdentifier: ObjectIdentifier?
    /// Which senders it accepts.
    public let sender: SenderFilter
    /// The label of the queue it is delivered on, or `nil` for synchronous delivery on the posting thread.
    public let queueLabel: String?
    /// Where `register` was called.
    public let site: SourceLocation
    /// When it was registered, on the clock of the other times in tap events but at the resolution of the kernel's
    /// tick (a few milliseconds, `CLOCK_MONOTONIC_COARSE`): it may read up to a tick earlier than a time taken just
    /// before `register` was called, and it is never later than a time taken after it returned.
    public let registeredAt: Nanoseconds
    /// Its options: ``RegistrationOptions/once``, ``RegistrationOptions/replay``; empty for a plain registration.
    public internal(set) var options: RegistrationOptions = []
    /// Whether this registration took its mail type past the limit set with
    /// ``PostOffice/setRecipientLimit(_:for:)`` or ``PostOffice/setDefaultRecipientLimit(_:)``.
    public internal(set) var isOverLimit: Bool = false
    /// The sender type its mail type requires when the mail type is ``VerifiedMail``; `nil` for ``Mail``.
    public internal(set) var requiredSender: TypeIdentity? = nil
    /// The scope it was made in (``MailScope``), whose end it should not outlive; `nil` when made outside any scope
    /// or with ``RegistrationOptions/outlivesScope``.
    public internal(set) var scope: ScopeInfo? = nil

    /// Creates a registration's description: the post office's, of its own registrations, and the wire's, of another
    /// process's (`package` for that reader, which has no other way to make one).
    package init(
        id: RecipientId, mailType: TypeIdentity, kind: RecipientKind, objectIdentifier: ObjectIdentifier?,
        sender: SenderFilter, queueLabel: String?, site: SourceLocation, registeredAt: Nanoseconds,
        options: RegistrationOptions = [], isOverLimit: Bool = false, requiredSender: TypeIdentity? = nil,
        scope: ScopeInfo? = nil
    ) {
        self.id = id
        self.mailType = mailType
        self.kind = kind
        self.objectIdentifier = objectIdentifier
        self.sender = sender
        self.queueLabel = queueLabel
        self.site = site
        self.registeredAt = registeredAt
        self.options = options
        self.isOverLimit = isOverLimit
        self.requiredSender = requiredSender
        self.scope = scope
    }

    /// Whether its mail type is ``VerifiedMail``: every mail it receives was posted by a ``requiredSender``.
    public var isVerified: Bool { requiredSender != nil }

    /// Whether it delivers one mail and then unregisters.
    public var isOnce: Bool { options.contains(.once) }
}
