import PonyExpress
import PonyExpressMonitor

/// A finding of the monitor, pointing at its mail type and site, with the numbers behind it.
package struct FindingRow: Equatable, Sendable, Keyed {
    /// A stable identity: kind, mail type, site and subject.
    package var id: String
    /// The finding's kind, such as `growingRegistrations`.
    package var kind: Finding.Kind
    /// Its category, such as ``Finding/Category/leak``, as the monitor gives it.
    package var category: Finding.Category
    /// The mail type it is about.
    package var mailType: TypeIdentity
    /// The registration site, if one is to blame.
    package var site: SourceLocation?
    /// What tells apart findings of one kind, type and site, such as a queue label.
    package var subject: String?
    /// One line saying what is wrong.
    package var explanation: String
    /// The numbers behind it, each in its unit: put in words only when drawn.
    package var evidence: [Evidence]
    /// Nanoseconds since the monitor first saw it.
    package var age: UInt64
    /// Whether it still holds; a finding of the run's log that stopped holding (no longer holding, or retracted for
    /// a reason) stays in the pane, marked, until a reset.
    package var state: FindingLog.State

    /// Creates a row.
    package init(
        id: String? = nil, kind: Finding.Kind, category: Finding.Category, mailType: TypeIdentity,
        site: SourceLocation?,
        subject: String? = nil, explanation: String, evidence: [Evidence] = [], age: UInt64 = 0,
        state: FindingLog.State = .holding
    ) {
        self.id =
            id
            ?? [kind.rawValue, mailType.qualifiedName, site?.description ?? "-", subject ?? "-"].joined(separator: "|")
        self.kind = kind
        self.category = category
        self.mailType = mailType
        self.site = site
        self.subject = subject
        self.explanation = explanation
        self.evidence = evidence
        self.age = age
        self.state = state
    }

    /// The row's key in selections.
    package var key: String { id }
}
