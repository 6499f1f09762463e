import PonyExpress

/// Something the monitor thinks a developer should look at: a likely leak, over-subscription or a slow recipient.
///
/// Findings are computed at snapshot time from thresholds in ``MonitorSettings``; a finding stays in the snapshot
/// while its condition holds, keeping the time it was first seen.
public struct Finding: Sendable, Codable, Hashable, Identifiable {
    /// What was found.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A mail type has more live recipients than ``MonitorSettings/oversubscriptionThreshold``.
        case oversubscribed
        /// The same object is registered more than once for the same mail type.
        case duplicateRegistration
        /// Live registrations from one site kept growing over ``MonitorSettings/leakWindow`` while mail was posted.
        case growingRegistrations
        /// Block registrations from one site are never unregistered while their number grows.
        case accumulatingBlocks
        /// Registrations from one site are pruned (their objects die without unregistering) at a high rate.
        case highPruneRate
        /// One recipient's handler takes most of its mail type's handler time.
        case slowRecipient
        /// The wait before queued delivery on one queue keeps rising.
        case risingQueueWait

        /// The category this kind belongs to.
        public var category: Category {
            switch self {
            case .oversubscribed, .duplicateRegistration: .oversubscription
            case .growingRegistrations, .accumulatingBlocks, .highPruneRate: .leak
            case .slowRecipient, .risingQueueWait: .slow
            }
        }
    }

    /// The three families of problems the monitor looks for.
    public enum Category: String, Sendable, Codable {
        /// Recipients that pile up.
        case leak
        /// Too many recipients for one mail type, or the same one twice.
        case oversubscription
        /// Handlers or queues that hold delivery up.
        case slow
    }

    /// What was found.
    public let kind: Kind
    /// The mail type concerned.
    public let mailType: TypeIdentity
    /// The registration site concerned, when known.
    public let site: SourceLocation?
    /// One line that says what is wrong, for a person.
    public let explanation: String
    /// The numbers behind it.
    public let evidence: [Evidence]
    /// When the monitor first saw it, on the monitor's clock.
    public let firstSeen: Nanoseconds
    /// A detail that tells apart findings of one kind, type and site, such as a queue label or recipient id.
    public let subject: String?

    /// The category of ``kind``.
    public var category: Category { kind.category }

    /// A stable identity: the kind, the mail type, the site and the subject.
    public var id: String {
        "\(kind.rawValue)|\(mailType.qualifiedName)|\(site?.description ?? "-")|\(subject ?? "-")"
    }

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - kind: What was found.
    ///   - mailType: The mail type concerned.
    ///   - site: The registration site, when known.
    ///   - subject: A detail that tells apart findings of one kind, type and site.
    ///   - explanation: One line for a person.
    ///   - evidence: The numbers behind it.
    ///   - firstSeen: When it was first seen.
    public init(
        kind: Kind, mailType: TypeIdentity, site: SourceLocation?, subject: String? = nil, explanation: String,
        evidence: [Evidence], firstSeen: Nanoseconds
    ) {
        self.kind = kind
        self.mailType = mailType
        self.site = site
        self.subject = subject
        self.explanation = explanation
        self.evidence = evidence
        self.firstSeen = firstSeen
    }

    /// The value of the evidence named `name`, if there is one.
    ///
    /// - Parameter name: The evidence name.
    /// - Returns: Its value, or `nil`.
    public func evidence(named name: String) -> Double? {
        evidence.first { $0.name == name }?.value
    }
}
