import PonyExpress

/// A finding of the monitor: a leak, over-subscription or slowness, pointing at its mail type and site.
package struct FindingRow: Equatable, Sendable {
    /// The finding's kind, such as `growingRegistrations`.
    package var kind: String
    /// `leak`, `oversubscription` or `slow`.
    package var category: String
    /// The mail type it is about.
    package var mailType: TypeIdentity
    /// The registration site, if one is to blame.
    package var site: String?
    /// One line saying what is wrong.
    package var explanation: String

    /// Creates a row.
    package init(kind: String, category: String, mailType: TypeIdentity, site: String?, explanation: String) {
        self.kind = kind
        self.category = category
        self.mailType = mailType
        self.site = site
        self.explanation = explanation
    }
}
