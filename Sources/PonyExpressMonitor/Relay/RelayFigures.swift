import PonyExpress

/// What a relay did with one shared mail type: mail sent to other processes, received from them, dropped, and the
/// lag from a post in another process to its arrival here.
///
/// A relay (for example `PonyExpressRelay`'s `PostgresRelay`) reports these through ``RelayFigureSource``; a snapshot
/// carries them in ``MailTypeStats/relay``, `nil` for a type that is not shared.
public struct RelayFigures: Sendable, Codable, Hashable {
    /// Local posts sent to the other processes.
    public let sent: UInt64
    /// Posts of other processes that arrived and were posted here.
    public let received: UInt64
    /// Local posts not sent: the relay was not connected, its outbox was full, the mail was too large, or the
    /// connection failed while sending it.
    public let dropped: UInt64
    /// How many recent arrivals the lag percentiles are taken over; 0 before any, when the lags mean nothing.
    public let lagSamples: UInt64
    /// Median lag from post in the sending process (its wall clock) to arrival here (this host's wall clock).
    public let lagP50: Nanoseconds
    /// The 99th percentile of the same lags.
    public let lagP99: Nanoseconds

    /// Creates relay figures.
    ///
    /// - Parameters:
    ///   - sent: Local posts sent.
    ///   - received: Remote posts received.
    ///   - dropped: Local posts not sent.
    ///   - lagSamples: Arrivals the lags are taken over.
    ///   - lagP50: Median lag.
    ///   - lagP99: 99th percentile lag.
    public init(
        sent: UInt64, received: UInt64, dropped: UInt64, lagSamples: UInt64 = 0, lagP50: Nanoseconds = 0,
        lagP99: Nanoseconds = 0
    ) {
        self.lagSamples = lagSamples
        self.sent = sent
        self.received = received
        self.dropped = dropped
        self.lagP50 = lagP50
        self.lagP99 = lagP99
    }
}

extension RelayFigures {
    /// The mail sent, received and dropped since `earlier`, the same type's figures in an earlier snapshot (all of
    /// it when there were none); the lags are this snapshot's, and count only when some mail arrived since.
    public func since(_ earlier: RelayFigures?) -> RelayFigures {
        guard let earlier else { return self }
        let received = received.since(earlier.received)
        let sampled = received > 0 && lagSamples > 0
        return RelayFigures(
            sent: sent.since(earlier.sent), received: received, dropped: dropped.since(earlier.dropped),
            lagSamples: sampled ? Swift.min(lagSamples, received) : 0, lagP50: sampled ? lagP50 : 0,
            lagP99: sampled ? lagP99 : 0)
    }
}
