/// What a viewer asks of an agent.
package enum Request: Codable, Equatable, Sendable {
    /// Send a snapshot now, with the live recipients of these mail types (by qualified name) and no others: the
    /// recipients of every type can be far more than a viewer shows.
    case snapshot(recipientsOf: [String])
    /// Send a snapshot now with the live recipients of every mail type: what a report of the end state needs.
    case fullSnapshot
    /// Reset the monitor's statistics.
    case resetStatistics
    /// Nothing to answer: the viewer is still there, only not asking for snapshots (a paused ponytop), so that the
    /// agent does not count it quiet and give its slot to a newcomer (``Hello/quietViewerBound``). Since 1.3: send it
    /// only to an agent whose hello's minor version is 3 or later, since an older one ends a session on a request it
    /// cannot read.
    case keepAlive

    package var frame: Frame {
        get throws { Frame(kind: .request, payload: try WireEncoder.encode(self)) }
    }
}
