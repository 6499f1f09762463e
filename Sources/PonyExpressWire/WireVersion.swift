import PonyExpress

/// The wire protocol's version. A new minor version adds only fields a reader may skip or find absent (optional
/// ones); anything else takes a new major version. A reader accepts every minor version of its own major version.
package enum WireVersion {
    /// Readers refuse other major versions.
    package static let major = 1
    /// Readers accept any minor version of their major version.
    /// 1.1: registration options, the over-limit mark and per-recipient replays, each absent when unset.
    /// 1.2: a registration site's `filePath`, a snapshot's retracted findings with their `retraction`, and a mail
    /// type's bridged posts, each absent when unset (read as none from older peers).
    /// 1.3: the hello's `quietViewerBound` and the `keepAlive` request, which a viewer sends only to an agent of 1.3 or
    /// later.
    /// 1.4: a registration's scope (`scopeName`, `scopeId`), absent outside scopes; findings of kind
    /// `outlivedScope`, which an older viewer shows with the category it gives unknown kinds.
    /// 1.5: a site's `scopes`, the counts of the scopes that registered there and ended, absent when none did.
    /// 1.6: the `judge` request (a viewer's rule changes, judged with a memory of the viewer's own); `resetStatistics`
    /// resets only that viewer's findings.
    /// 1.7: a snapshot's `ruleFacts` (what its rules judged, without thresholds), sent only to a viewer that asks with
    /// the `includeRuleFacts` request, and absent from older agents' snapshots.
    /// 1.8: the rule facts' `leaks` (the leak rule's facts: the sites that grew, and the registration seconds of
    /// watched sites that changed lately), absent from older agents' facts, whose leaks a replay keeps as recorded.
    /// 1.9: the hello's `appRules` (the app's rules over the defaults) and the `factsToJudge` request: a viewer that
    /// sends it judges the snapshots' rule facts itself, and the agent judges nothing for it; the rule facts' crowds
    /// carry their `liveSeries` and their pruned sites their prunes `perSecond`, with which a viewer attaching late
    /// dates those findings from the app's history (absent from older agents' facts).
    package static let minor = 9
    /// `major.minor`.
    package static var current: String { "\(major).\(minor)" }
    /// The agent library's own version, sent in the hello: the package's.
    package static var library: String { PackageVersion.current }
}
