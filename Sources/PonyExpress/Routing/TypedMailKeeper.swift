/// The last mail of type `Contents`, stored at its own type, and its sender, held weakly.
final class TypedMailKeeper<Contents: SendableMetatype>: MailKeeper, @unchecked Sendable {
    private var mail: Contents?
    /// Whether the kept mail was posted with a sender, which may since have been released.
    private var hadSender = false
    private weak var sender: AnyObject?

    init() {
        super.init(for: Contents.self)
    }

    override func keep<M: SendableMetatype>(_ mail: M, sender: AnyObject?) {
        // The route only holds keepers whose type matched this value.
        self.mail = M.self == Contents.self ? unsafeBitCast(mail, to: Contents.self) : (mail as! Contents)
        hadSender = sender != nil
        self.sender = sender
    }

    override func replay() -> MailReplay? {
        guard let mail else { return nil }
        let sender = self.sender
        let senderReleased = hadSender && sender == nil
        return MailReplay { registration, office, taps in
            office.replay(mail, sender: sender, senderReleased: senderReleased, to: registration, taps: taps)
        }
    }

    override func lastMail<M: SendableMetatype>(as _: M.Type) -> M? {
        mail as? M
    }
}
