import PonyExpress

/// The relay a monitor reads, held weakly so that the monitor does not keep it alive.
struct WeakRelay {
    weak var source: (any RelayFigureSource)?
}

extension PostOfficeMonitor {
    /// Reads the relay's per-type figures into every snapshot from now on (``MailTypeStats/relay``); one relay at a
    /// time, held weakly. Counts are the relay's own, from its start.
    ///
    /// - Parameter relay: The relay of the post office this monitor watches.
    public func watch(_ relay: any RelayFigureSource) {
        relaySource.withLock { $0.source = relay }
    }

    /// The snapshot's mail types with the watched relay's figures.
    func withRelayFigures(_ mailTypes: [MailTypeStats]) -> [MailTypeStats] {
        guard let figures = relaySource.withLock({ $0.source })?.relayFigures(), !figures.isEmpty else {
            return mailTypes
        }
        return mailTypes.map { stats in
            var stats = stats
            stats.relay = figures[stats.mailType]
            return stats
        }
    }
}
