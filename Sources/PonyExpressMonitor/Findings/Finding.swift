import PonyExpress

/// Something the monitor thinks a developer should look at: a likely leak, over-subscription, a stalled queue.
///
/// Findings are computed at snapshot time by the rules of ``FindingRules``, with the thresholds of
/// ``MonitorSettings``; a finding stays in the snapshot while its condition holds, keeping the time it was first seen.
///
/// ```swift
/// for finding in snapshot.findings where finding.category == .leak {
///     print(finding.kind, finding.site?.description ?? "-", finding.explanation)
///     for evidence in finding.evidence { print("  ", evidence) }
/// }
/// ```
public struct Finding: Sendable, Codable, Hashable, Identifiable {
    /// What was found: the name of the rule that found it, such as ``growingRegistrations``.
    ///
    /// Each rule declares its kind in its own file; ``FindingRules/all`` lists them.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        /// The kind's name, as `--allow` and the JSON report spell it: `growingRegistrations`.
        public let rawValue: String

        /// Creates a kind from its name.
        ///
        /// - Parameter rawValue: The name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a kind from its name.
        ///
        /// - Parameter value: The name.
        public init(stringLiteral value: String) {
            rawValue = value
        }

        public var description: String { rawValue }

        /// The category of the rule that reports this kind (``Category/slow`` for a kind no rule reports).
        public var category: Category {
            FindingRules.all.first { $0.kind == self }?.category ?? .slow
        }

        /// Every kind a rule reports, in the order of ``FindingRules/all``.
        public static var allCases: [Kind] { FindingRules.all.map(\.kind) }
    }

    /// The families of problems the monitor looks for; `ponytop --fail-on` fails on one of them.
    public enum Category: String, Sendable, Codable, CaseIterable {
        /// Recipients that pile up and are never let go.
        case leak
        /// Too many recipients for one mail type, or the same one twice.
        case oversubscription
        /// Handlers or queues that hold delivery up.
        case slow
        /// Recipients that come and go fast, such as weak references that die without unregistering: correct use of
        /// PonyExpress, worth a look for the work it costs, never a leak.
        case churn
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
    /// Why the monitor took the finding back, for a finding of ``MonitorSnapshot/retractedFindings``; `nil` for one
    /// that holds. A leak is retracted when the registrations whose growth raised it end: it was a population that
    /// filled up and emptied, which no rule can tell from a leak while it grows.
    public let retraction: String?

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
    ///   - retraction: Why it was taken back, or `nil` while it holds.
    public init(
        kind: Kind, mailType: TypeIdentity, site: SourceLocation?, subject: String? = nil, explanation: String,
        evidence: [Evidence], firstSeen: Nanoseconds, retraction: String? = nil
    ) {
        self.kind = kind
        self.mailType = mailType
        self.site = site
        self.subject = subject
        self.explanation = explanation
        self.evidence = evidence
        self.firstSeen = firstSeen
        self.retraction = retraction
    }

    /// The value of the evidence named `name`, if there is one.
    ///
    /// - Parameter name: The evidence name.
    /// - Returns: Its value, or `nil`.
    public func evidence(named name: Evidence.Name) -> Double? {
        evidence.first { $0.name == name }?.value
    }

    /// This finding, first seen at `time`.
    func seen(at time: Nanoseconds) -> Finding {
        Finding(
            kind: kind, mailType: mailType, site: site, subject: subject, explanation: explanation,
            evidence: evidence, firstSeen: time, retraction: retraction)
    }

    /// This finding with another explanation and evidence, or taken back for `retraction`.
    func with(explanation: String, evidence: [Evidence]? = nil, retraction: String? = nil) -> Finding {
        Finding(
            kind: kind, mailType: mailType, site: site, subject: subject, explanation: explanation,
            evidence: evidence ?? self.evidence, firstSeen: firstSeen, retraction: retraction)
    }
}
