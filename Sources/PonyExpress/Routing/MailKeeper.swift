/// The last mail of one mail type that asked for it with ``PostOffice/keepLastMail(_:)``, and its sender.
///
/// Read and written only under the post office's lock: a post keeps its mail while it takes its route, and a
/// registration takes the kept mail while it is added. The typed storage lives in ``TypedMailKeeper``.
class MailKeeper: @unchecked Sendable {
    /// The mail type that keeps its mail.
    let mailType: any Any.Type
    /// Whether mail of a posted dynamic type is kept here: the type itself or one of its subclasses.
    let acceptsType: (_ type: any Any.Type) -> Bool

    init<Contents: SendableMetatype>(for _: Contents.Type) {
        mailType = Contents.self
        acceptsType = { $0 is Contents.Type }
    }

    /// Keeps `mail`, replacing what was kept.
    func keep<M: SendableMetatype>(_ mail: M, sender: AnyObject?) {}

    /// The kept mail, ready to be delivered to a new registration; `nil` when nothing was posted yet.
    func replay() -> MailReplay? { nil }

    /// The kept mail, if it is a `M`.
    func lastMail<M: SendableMetatype>(as _: M.Type) -> M? { nil }
}

extension PostOffice.State {
    /// The keepers that keep mail of a posted dynamic type: what its route carries.
    func keepers(forPosted type: any Any.Type) -> [MailKeeper] {
        keepers.isEmpty ? [] : keepers.values.filter { $0.acceptsType(type) }
    }
}
