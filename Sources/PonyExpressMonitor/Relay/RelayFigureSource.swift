import PonyExpress

/// Something that relays mail between processes and can say, per mail type, what it sent, received and dropped.
///
/// The monitor reads a relay through this protocol when it takes a snapshot (``PostOfficeMonitor/watch(_:)``), so
/// that the relay's hot path only bumps its own counters and the monitor depends on no relay: the relay module
/// depends on the monitor, never the other way round.
public protocol RelayFigureSource: AnyObject, Sendable {
    /// The figures of every shared mail type, by mail type.
    func relayFigures() -> [TypeIdentity: RelayFigures]
}
