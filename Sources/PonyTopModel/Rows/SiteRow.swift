import PonyExpress
import PonyExpressMonitor

/// The live registrations made at one source line, of one kind, object type, queue and sender filter, for one
/// mail type: what a leak hunter reads as one row (`BlockObserver.swift:10  ×170  +40 in 10 s`).
package struct SiteRow: Equatable, Sendable {
    /// Where `register` was called (`Module/File.swift:line` when drawn).
    package var site: SourceLocation
    /// The mail type registered for.
    package var registeredFor: String
    /// Whether that is a superclass of the shown mail type, whose mail these recipients receive as subclass mail.
    package var isInherited: Bool
    /// Objects of a type, held weakly, and a method; or blocks.
    package var kind: RecipientKind
    /// The delivery queue's label, `nil` for synchronous delivery.
    package var queue: String?
    /// Which senders its registrations accept: any, an optional or required type, or one exact instance.
    package var sender: SenderFilter
    /// Live registrations.
    package var recipients: Int
    /// How many more live registrations the site has than 10 s and 60 s ago; `nil` before the monitor watched it
    /// that long.
    package var growth10s, growth1m: Int?
    /// Nanoseconds since the oldest live registration registered.
    package var oldestAge: UInt64?
    /// Handler runs of the shown mail type.
    package var deliveries: UInt64
    /// The 99th percentile wait on its queue, nanoseconds; `nil` for synchronous delivery or before any.
    package var queueWaitP99: UInt64?
    /// The registrations, oldest first, each with what it received of the shown mail type: the snapshot's own
    /// statistics, not a copy (a registration's age counts back from the dashboard's time when drawn).
    package var registrations: [ReceiverStats]
    /// The scopes that registered here and ended, by name, most leaked first (the monitor's counts).
    package var scopes: [ScopeCounts] = []

    /// Creates a row.
    package init(
        site: SourceLocation, registeredFor: String, isInherited: Bool = false, kind: RecipientKind, queue: String?,
        sender: SenderFilter, recipients: Int, growth10s: Int? = nil, growth1m: Int? = nil,
        oldestAge: UInt64? = nil, deliveries: UInt64, queueWaitP99: UInt64? = nil, registrations: [ReceiverStats] = []
    ) {
        self.site = site
        self.registeredFor = registeredFor
        self.isInherited = isInherited
        self.kind = kind
        self.queue = queue
        self.sender = sender
        self.recipients = recipients
        self.growth10s = growth10s
        self.growth1m = growth1m
        self.oldestAge = oldestAge
        self.deliveries = deliveries
        self.queueWaitP99 = queueWaitP99
        self.registrations = registrations
    }

    /// Registrations here that outlived their scope and are still registered.
    package var outlived: Int { scopes.reduce(0) { $0 + $1.outlived } }

    /// What the row says of its scopes: the name of the one with the most leaked scopes, and how many of that name
    /// leaked of those that ended (`scope GET /cart 3/150 leaked`), or just the name when none leaked; empty when no
    /// scope that registered here has ended.
    package var scopeSummary: String {
        guard let first = scopes.first else { return "" }
        let more = scopes.count > 1 ? " +\(scopes.count - 1)" : ""
        guard first.leakedScopes > 0 else { return "scope \(first.name)\(more)" }
        return "scope \(first.name) \(first.leakedScopes)/\(first.endedScopes) leaked\(more)"
    }

    /// Registrations of the same object more than once for the mail type.
    package var duplicates: Int { registrations.filter(\.recipient.isDuplicate).count }

    /// The row's key in selections and expansions.
    package var key: String {
        [site.description, registeredFor, kind.word, objectType ?? "-", queue ?? "-", sender.notation].joined(
            separator: "|")
    }

    /// The recipient objects' type name, `nil` for blocks.
    package var objectType: String? { kind.objectType?.name }

    /// Who receives: the object type, or `block`.
    package var recipientName: String { kind.recipientName }
}
