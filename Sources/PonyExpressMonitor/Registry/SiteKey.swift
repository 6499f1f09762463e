import PonyExpress

/// What the monitor groups registrations by: where `register` was called, for which mail type, and for which kind
/// of recipient (an object's type, or a block).
///
/// In an app one source location almost always registers one mail type for one kind of recipient; a generic helper
/// that registers whatever it is given gets one row per mail type and recipient type, so that a leak of one kind is
/// not averaged with the healthy comings and goings of another.
package struct SiteKey: Hashable, Sendable {
    package let site: SourceLocation
    package let mailType: TypeIdentity
    package let kind: RecipientKind

    /// The group of one registration.
    package init(_ info: RecipientInfo) {
        site = info.site
        mailType = info.mailType
        kind = info.kind
    }

    package init(site: SourceLocation, mailType: TypeIdentity, kind: RecipientKind) {
        self.site = site
        self.mailType = mailType
        self.kind = kind
    }
}

extension SiteStats {
    /// The group these statistics are of; `nil` for the "other" bucket. What a viewer joins a registration to its
    /// site's statistics by, object type included: a helper that registers two object types from one line has two.
    package var key: SiteKey? {
        guard let site, let mailType, let kind else { return nil }
        return SiteKey(site: site, mailType: mailType, kind: kind)
    }
}
