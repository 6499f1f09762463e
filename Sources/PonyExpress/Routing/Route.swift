/// What a post of one dynamic type needs: the registrations it goes to, merged across the buckets it matches in
/// registration order, and the taps to report to. Immutable: built under the post office's lock and published in
/// its ``RouteSlot``, where posts read it without the lock and deliver from it.
final class Route: @unchecked Sendable {
    let registrations: ContiguousArray<Registration>
    /// The taps attached when the route was built, or `nil` when there were none.
    let taps: TapList?
    /// The same taps, for a post to use without retaining them: the post holds the route, which holds them.
    let unownedTaps: Unmanaged<TapList>?
    /// The posted dynamic type.
    let mailType: TypeIdentity
    /// Whether the posted type is a class, whose instances may be of a subclass with a route of its own.
    let isClassMail: Bool
    /// The keepers of the mail types this mail is kept for (see ``PostOffice/keepLastMail(_:)``), usually none.
    let keepers: [MailKeeper]
    /// Whether ``keepers`` is not empty: the one check a post of a type that keeps no mail pays.
    let keepsMail: Bool

    init(
        registrations: ContiguousArray<Registration>, taps: TapList?, mailType: any Any.Type,
        keepers: [MailKeeper] = []
    ) {
        self.registrations = registrations
        self.taps = taps
        self.unownedTaps = taps.map(Unmanaged.passUnretained)
        self.mailType = TypeIdentity(mailType)
        self.isClassMail = mailType is AnyClass
        self.keepers = keepers
        self.keepsMail = !keepers.isEmpty
    }

    /// Keeps posted mail in every keeper of the route; called under the post office's lock.
    @inline(never)
    func keep<M: SendableMetatype>(_ mail: M, sender: AnyObject?) {
        for keeper in keepers { keeper.keep(mail, sender: sender) }
    }
}
