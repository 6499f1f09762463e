import PonyExpress
import PonyExpressMonitor

/// A finding of the monitor, pointing at its mail type and site, with the numbers behind it.
package struct FindingRow: Equatable, Sendable, Keyed {
    /// One number behind a finding.
    package struct Evidence: Equatable, Sendable {
        /// What it measures, as the monitor names it.
        package var name: String
        /// Its value, as the monitor gives it.
        package var value: Double
        /// Its unit, as the monitor names it: `count`, `nanoseconds`, `perSecond` or `share`.
        package var unit: String
        /// Its value in its unit, as people read it: `2.6ms`, `4.2/s`, `99%`.
        package var text: String

        /// Creates evidence.
        ///
        /// - Parameters:
        ///   - name: What it measures.
        ///   - value: Its value.
        ///   - unit: Its unit's name; a count unless said otherwise.
        ///   - text: Its value as people read it; the plain number unless given.
        package init(name: String, value: Double, unit: String = "count", text: String? = nil) {
            self.name = name
            self.value = value
            self.unit = unit
            self.text = text ?? Units.decimal(value, places: value == value.rounded() ? 0 : 3)
        }
    }

    /// A stable identity: kind, mail type, site and subject.
    package var id: String
    /// The finding's kind, such as `growingRegistrations`.
    package var kind: String
    /// Its category, such as `leak`.
    package var category: String
    /// The mail type it is about.
    package var mailType: TypeIdentity
    /// The registration site, if one is to blame.
    package var site: String?
    /// What tells apart findings of one kind, type and site, such as a queue label.
    package var subject: String?
    /// One line saying what is wrong.
    package var explanation: String
    /// The numbers behind it.
    package var evidence: [Evidence]
    /// Nanoseconds since the monitor first saw it.
    package var age: UInt64
    /// `nil` while it holds; `no longer holding`, or `retracted: ` and the reason, for a finding of the run's log
    /// that stopped holding: the pane keeps it, marked, until a reset.
    package var status: String?

    /// Creates a row.
    package init(
        id: String? = nil, kind: String, category: String, mailType: TypeIdentity, site: String?,
        subject: String? = nil, explanation: String, evidence: [Evidence] = [], age: UInt64 = 0,
        status: String? = nil
    ) {
        self.id = id ?? [kind, mailType.qualifiedName, site ?? "-", subject ?? "-"].joined(separator: "|")
        self.kind = kind
        self.category = category
        self.mailType = mailType
        self.site = site
        self.subject = subject
        self.explanation = explanation
        self.evidence = evidence
        self.age = age
        self.status = status
    }

    /// The row's key in selections.
    package var key: String { id }
}
