import PonyExpress

/// A finding of the monitor: a leak, over-subscription or slowness, pointing at its mail type and site.
public struct FindingRow: Equatable, Sendable {
    /// The finding's kind, such as `growingRegistrations`.
    public var kind: String
    /// `leak`, `oversubscription` or `slow`.
    public var category: String
    /// The mail type it is about.
    public var mailType: TypeIdentity
    /// The registration site, if one is to blame.
    public var site: String?
    /// One line saying what is wrong.
    public var explanation: String

    /// Creates a row.
    public init(kind: String, category: String, mailType: TypeIdentity, site: String?, explanation: String) {
        self.kind = kind
        self.category = category
        self.mailType = mailType
        self.site = site
        self.explanation = explanation
    }
}
