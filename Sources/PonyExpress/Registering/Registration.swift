import Dispatch
import Synchronization

/// One registration: what to call, for which mail, from whom, where, and on which queue.
///
/// The handler lives in the generic subclass ``TypedRegistration``, so that delivery calls the stored closure at
/// its own type instead of casting a stored closure to a function type (which would wrap it in a reabstraction
/// thunk).
///
/// A registration keeps what its ``RecipientInfo`` is made of as metatypes, a `StaticString` and numbers, and builds
/// the info only when a tap or a caller of ``PostOffice/recipients()`` asks: most registrations are never described,
/// and the site's text and the info would cost every `register` an allocation or two.
@usableFromInline
class Registration: @unchecked Sendable {
    /// The id's raw value, given under the post office's lock when the registration is added (0 until then), so
    /// that id order is registration order within a post office.
    let rawId = Atomic<UInt64>(0)
    /// The registered mail type.
    let mailType: any Any.Type
    /// Which senders it accepts, as taps see it.
    let sender: SenderFilter
    /// How the handler treats the sender; `.absent` handlers accept every sender without a type check.
    let senderParameter: SenderParameter
    let queue: DispatchQueue?
    /// The queue's label, read once at registration for queued deliveries' events; `nil` without a queue.
    let queueLabel: String?
    /// Whether the recipient is an object held weakly (otherwise a block).
    let hasObject: Bool
    weak let object: AnyObject?
    /// The recipient object's type and identity, for its info; `nil` for a block.
    let objectType: (any AnyObject.Type)?
    let objectIdentifier: ObjectIdentifier?
    /// Whether the registration filters on one exact sender.
    let hasExactSender: Bool
    weak let exactSender: AnyObject?
    /// Where `register` was called.
    let file: StaticString
    /// `#filePath` of the registration: a literal, so keeping it costs the registration 24 bytes and no allocation.
    let filePath: StaticString
    let line: UInt
    /// When it was registered, read from the coarse clock: a registration's age is shown in seconds, and the fine
    /// clock would cost every `register` a quarter of its time.
    let registeredAt: Nanoseconds
    /// Cleared, under the post office's lock, when the registration is unregistered or pruned; checked before
    /// every delivery, and again inside the entry handshake (``ThreadRuns``) just before the handler is called.
    let isActive = Atomic<Bool>(true)
    /// Set when a thread first enters a run of this registration; until then `unregister` has no runs to wait for.
    let wasEntered = Atomic<Bool>(false)
    /// ``RegistrationOptions/once``, ``RegistrationOptions/replay``; empty for a plain registration.
    let options: RegistrationOptions
    /// Whether it delivers once: a delivery claims it by clearing ``isActive``.
    let isOnce: Bool
    /// Where the handler of a once registration finds its post office and id to unregister itself; `nil` for
    /// other registrations. Not counted: the handler, which the registration keeps as long as it lives, holds it
    /// (see ``TypedRegistration``), so that a plain registration pays no retain or release for an empty reference.
    let retirement: Unmanaged<OfficeReference>?
    /// Whether it took its mail type past a recipient limit; set under the post office's lock before it is shared.
    var isOverLimit = false
    /// The scope it was made in (``MailScope``), set before it is shared; `nil` outside any scope.
    var scope: MailScope?

    /// The queue, object and exact sender are borrowed, not taken: the registration keeps the queue and holds the
    /// other two weakly, so that registering an object retains and releases nothing of it (an object with a weak
    /// reference counts on the runtime's slow path).
    init(
        mailType: any Any.Type, sender: SenderFilter, senderParameter: SenderParameter,
        queue: __shared DispatchQueue?, object: __shared AnyObject?, exactSender: __shared AnyObject?,
        file: StaticString, filePath: StaticString, line: UInt, options: RegistrationOptions = [],
        retirement: Unmanaged<OfficeReference>? = nil
    ) {
        self.options = options
        self.isOnce = options.contains(.once)
        self.retirement = retirement
        self.mailType = mailType
        self.sender = sender
        self.senderParameter = senderParameter
        self.queue = queue
        self.queueLabel = queue?.label
        if let object {
            hasObject = true
            objectType = type(of: object)
            objectIdentifier = ObjectIdentifier(object)
        } else {
            hasObject = false
            objectType = nil
            objectIdentifier = nil
        }
        self.object = object
        self.hasExactSender = exactSender != nil
        self.exactSender = exactSender
        self.file = file
        self.filePath = filePath
        self.line = line
        self.registeredAt = MonotonicClock.coarseNow()
    }

    var id: RecipientId { RecipientId(rawValue: rawId.load(ordering: .relaxed)) }

    /// The registration as taps and ``PostOffice/recipients()`` describe it, built on each call.
    var info: RecipientInfo {
        RecipientInfo(
            id: id, mailType: TypeIdentity(mailType), kind: objectType.map { .object(TypeIdentity($0)) } ?? .block,
            objectIdentifier: objectIdentifier, sender: sender, queueLabel: queueLabel,
            site: SourceLocation(file, line, filePath: filePath), registeredAt: registeredAt, options: options,
            isOverLimit: isOverLimit, requiredSender: requiredSenderType(of: mailType).map(TypeIdentity.init),
            scope: scope?.info)
    }

    /// A bucket for the registered mail type, when this registration is the type's first.
    func makeBucket() -> Bucket { preconditionFailure("every registration is a TypedRegistration") }

    /// Whether `sender` passes the handler's sender type.
    func accepts(sender: AnyObject?) -> Bool { true }

    /// Runs the handler. `recipient` is the live object for method registrations, `nil` for blocks.
    func deliver<M: SendableMetatype>(_ mail: M, sender: AnyObject?, recipient: AnyObject?) {}
}
