/// The one handler shape every public `register` overload is turned into.
final class TypedRegistration<Contents: Mail, Sender: AnyObject>: Registration, @unchecked Sendable {
    let body: (_ mail: Contents, _ sender: Sender?, _ recipient: AnyObject?) -> Void

    init(
        info: RecipientInfo, senderParameter: SenderParameter, target: RegistrationTarget,
        body: @escaping (Contents, Sender?, AnyObject?) -> Void
    ) {
        self.body = body
        super.init(info: info, senderParameter: senderParameter, target: target)
    }

    override func accepts(sender: AnyObject?) -> Bool {
        switch senderParameter {
        case .absent: true
        case .optional: sender == nil || sender is Sender
        case .required: sender is Sender
        }
    }

    override func deliver<M: Mail>(_ mail: M, sender: AnyObject?, recipient: AnyObject?) {
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
