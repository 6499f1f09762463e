/// A scope as registrations and ``ScopeEnd`` name it: see ``MailScope``.
public struct ScopeInfo: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The scope's name: a route, a screen, a job's kind.
    public let name: String
    /// A number no other scope of the process has.
    public let id: UInt64

    /// Describes a scope.
    ///
    /// - Parameters:
    ///   - name: Its name.
    ///   - id: Its number.
    public init(name: String, id: UInt64) {
        self.name = name
        self.id = id
    }

    public var description: String { name }
}

/// The check of a scope that ended: which of the registrations made in it, in one post office, were still
/// registered once its grace period had passed.
///
/// The post office records; a monitor judges: `PonyExpressMonitor` reports each outlived registration as an
/// `outlivedScope` finding.
public struct ScopeEnd: Hashable, Sendable {
    /// The registrations one site made in the scope.
    public struct Site: Hashable, Sendable {
        /// The registered mail type.
        public let mailType: TypeIdentity
        /// Where `register` was called.
        public let site: SourceLocation
        /// How many registrations the site made in the scope.
        public let registrations: Int
        /// How many of them were still registered, with their recipient alive, after the grace period.
        public let outlived: Int

        /// Describes a site's registrations in a scope.
        public init(mailType: TypeIdentity, site: SourceLocation, registrations: Int, outlived: Int) {
            self.mailType = mailType
            self.site = site
            self.registrations = registrations
            self.outlived = outlived
        }
    }

    /// The scope.
    public let scope: ScopeInfo
    /// When it was opened.
    public let openedAt: Nanoseconds
    /// When it ended.
    public let endedAt: Nanoseconds
    /// Its grace period.
    public let grace: Nanoseconds
    /// When its registrations were checked: its end plus the grace period, or a little later.
    public let checkedAt: Nanoseconds
    /// Every site that registered in the scope in this post office, by file and line.
    public let sites: [Site]
    /// The registrations still registered, with their recipient alive, at ``checkedAt``: those that outlived it.
    public let outlived: [RecipientInfo]

    /// Describes a scope's check.
    public init(
        scope: ScopeInfo, openedAt: Nanoseconds, endedAt: Nanoseconds, grace: Nanoseconds, checkedAt: Nanoseconds,
        sites: [Site], outlived: [RecipientInfo]
    ) {
        self.scope = scope
        self.openedAt = openedAt
        self.endedAt = endedAt
        self.grace = grace
        self.checkedAt = checkedAt
        self.sites = sites
        self.outlived = outlived
    }

    /// Whether every registration made in the scope was gone by the check.
    public var isClean: Bool { outlived.isEmpty }
}
