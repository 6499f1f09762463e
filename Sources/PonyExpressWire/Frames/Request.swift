import PonyExpressMonitor

/// What a viewer asks of an agent.
package enum Request: Codable, Equatable, Sendable {
    /// Send a snapshot now, with the live recipients of these mail types (by qualified name) and no others: the
    /// recipients of every type can be far more than a viewer shows.
    case snapshot(recipientsOf: [String])
    /// Send a snapshot now with the live recipients of every mail type: what a report of the end state needs.
    case fullSnapshot
    /// Forget this viewer's findings. Since 1.6 the agent resets the viewer's own judge only, never the app's
    /// counters (an agent of 1.5 or before reset the app's monitor for every consumer).
    case resetStatistics
    /// Nothing to answer: the viewer is still there, only not asking for snapshots (a paused ponytop), so that the
    /// agent does not count it quiet and give its slot to a newcomer (``Hello/quietViewerBound``). Since 1.3: send it
    /// only to an agent whose hello's minor version is 3 or later, since an older one ends a session on a request it
    /// cannot read.
    case keepAlive
    /// Judge this viewer's snapshots with the app's rules and these changes over them, from now on, with a memory of
    /// its own. Since 1.6: send it only to an agent whose hello's minor version is 6 or later. An agent that cannot
    /// judge so (an unknown parameter, a window longer than it keeps) sends an error frame naming it and closes.
    case judge(RuleOverrides)
    /// Send the rule facts (``MonitorSnapshot/ruleFacts``) with every snapshot from now on: what a recording keeps so
    /// that a replay judges it again with other thresholds. Since 1.7: send it only to an agent whose hello's minor
    /// version is 7 or later.
    case includeRuleFacts
    /// Send with every snapshot, from now on, the rule facts gathered for thresholds at or above these floors, and
    /// judge nothing for this viewer: it judges the facts itself, with its own rules over the hello's
    /// ``Hello/appRules`` and a memory of its own. Since 1.9: send it only to an agent whose hello's minor version is
    /// 9 or later; an older one is sent ``judge(_:)`` instead.
    case factsToJudge(RuleFacts.Floors)

    package var frame: Frame {
        get throws { Frame(kind: .request, payload: try WireEncoder.encode(self)) }
    }
}
