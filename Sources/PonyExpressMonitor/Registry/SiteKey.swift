import PonyExpress

/// What the monitor groups registrations by: where `register` was called, for which mail type, and for which kind
/// of recipient (an object's type, or a block).
///
/// In an app one source location almost always registers one mail type for one kind of recipient; a generic helper
/// that registers whatever it is given gets one row per mail type and recipient type, so that a leak of one kind is
/// not averaged with the healthy comings and goings of another.
struct SiteKey: Hashable {
    let site: SourceLocation
    let mailType: TypeIdentity
    let kind: RecipientKind

    init(_ info: RecipientInfo) {
        site = info.site
        mailType = info.mailType
        kind = info.kind
    }
}
