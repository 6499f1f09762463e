import Dispatch

/// The one handler shape every public `register` overload is turned into.
///
/// The `register` overloads are inlinable and make it where they are called, at the caller's types: there, the
/// class's generic metadata is a cached load. Made inside the module at generic types, every registration would
/// look it up in the runtime's metadata cache, which cost more than the rest of `register` together.
///
/// `Contents` is unconstrained on purpose, as in `PostOffice.add`, the door that makes it: see its comment.
@usableFromInline
final class TypedRegistration<Contents, Sender: AnyObject>: Registration, @unchecked Sendable {
    let body: (_ mail: Contents, _ sender: Sender?, _ recipient: AnyObject?) -> Void

    /// A plain registration: no options. Kept apart from the initializer with options, so that it stores the
    /// handler as it is and does nothing for once.
    ///
    /// The recipient is borrowed (`__shared`): an object with a weak reference is retained and released on the
    /// runtime's slow path, and the registration only holds it weakly. The queue and exact sender stay owned: borrowing
    /// them too changed how the compiler inlines a block's registration made through a function value, which then
    /// allocated two reabstraction thunks (`ponybench compare`, register + unregister: 148 ns against 93).
    @usableFromInline
    init(
        senderParameter: SenderParameter, queue: DispatchQueue?, exactSender: AnyObject?,
        recipient: __shared AnyObject?,
        file: StaticString, filePath: StaticString, line: UInt, body: @escaping (Contents, Sender?, AnyObject?) -> Void
    ) {
        self.body = body
        super.init(
            mailType: Contents.self, sender: Self.filter(senderParameter, exactSender: exactSender),
            senderParameter: senderParameter, queue: queue, object: recipient, exactSender: exactSender, file: file,
            filePath: filePath, line: line)
    }

    /// A registration with options.
    @usableFromInline
    init(
        senderParameter: SenderParameter, queue: DispatchQueue?, exactSender: AnyObject?,
        recipient: __shared AnyObject?,
        options: RegistrationOptions, file: StaticString, filePath: StaticString, line: UInt,
        body: @escaping (Contents, Sender?, AnyObject?) -> Void
    ) {
        // A once registration's handler unregisters it after the call, so that plain ones pay nothing for that; the
        // handler holds the reference, which the registration keeps uncounted. No `Optional.map` here: at these
        // generic types it would look up the closure type's metadata on every call.
        let retirement: Unmanaged<OfficeReference>?
        if options.contains(.once) {
            let reference = OfficeReference()
            retirement = Unmanaged.passUnretained(reference)
            self.body = reference.retiring(body)
        } else {
            retirement = nil
            self.body = body
        }
        super.init(
            mailType: Contents.self, sender: Self.filter(senderParameter, exactSender: exactSender),
            senderParameter: senderParameter, queue: queue, object: recipient, exactSender: exactSender, file: file,
            filePath: filePath, line: line, options: options, retirement: retirement)
    }

    /// Which senders the registration accepts, as taps see it.
    @inline(__always)
    private static func filter(_ senderParameter: SenderParameter, exactSender: AnyObject?) -> SenderFilter {
        if let exactSender {
            .exact(TypeIdentity(type(of: exactSender)))
        } else {
            switch senderParameter {
            case .absent: .any
            case .optional: .optional(TypeIdentity(Sender.self))
            case .required: .required(TypeIdentity(Sender.self))
            }
        }
    }

    override func makeBucket() -> Bucket { Bucket(for: Contents.self) }

    override func accepts(sender: AnyObject?) -> Bool {
        switch senderParameter {
        case .absent: true
        case .optional: sender == nil || sender is Sender
        case .required: sender is Sender
        }
    }

    override func deliver<M: SendableMetatype>(_ mail: M, sender: AnyObject?, recipient: AnyObject?) {
        // The route only holds registrations whose mail type matched this value, and `accepts(sender:)` ran first.
        let typedSender = senderParameter == .absent ? nil : sender.map { unsafeDowncast($0, to: Sender.self) }
        if M.self == Contents.self {
            // The common case, mail posted at its registered type: no dynamic cast.
            body(unsafeBitCast(mail, to: Contents.self), typedSender, recipient)
        } else {
            body(mail as! Contents, typedSender, recipient)
        }
    }
}
