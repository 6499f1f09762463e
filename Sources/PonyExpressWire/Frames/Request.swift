/// What a viewer asks of an agent.
package enum Request: Codable, Equatable, Sendable {
    /// Send a snapshot now, with the live recipients of these mail types (by qualified name) and no others: the
    /// recipients of every type can be far more than a viewer shows.
    case snapshot(recipientsOf: [String])
    /// Send a snapshot now with the live recipients of every mail type: what a report of the end state needs.
    case fullSnapshot
    /// Reset the monitor's statistics.
    case resetStatistics

    package var frame: Frame {
        get throws { Frame(kind: .request, payload: try WireEncoder.encode(self)) }
    }
}
