import Foundation

/// The center of a bus on Foundation's typed messages and every observation made on it: one ends when its token is
/// released, so the bus keeps them all until it unsubscribes them.
final class MessageObservations {
    let center = NotificationCenter()
    private var tokens: [NotificationCenter.ObservationToken] = []

    /// Keeps an observation made on ``center``.
    @discardableResult
    func keep(_ token: NotificationCenter.ObservationToken) -> NotificationCenter.ObservationToken {
        tokens.append(token)
        return token
    }

    /// Ends an observation and lets its token go.
    func remove(_ token: NotificationCenter.ObservationToken) {
        center.removeObserver(token)
        if tokens.last == token { tokens.removeLast() } else { tokens.removeAll { $0 == token } }
    }
}
