import PonyExpress

/// Demo mail: the base class of the app's analytics events.
///
/// A recipient registered for `AppEvent` also receives every subclass (``ScreenViewed``, ``NetworkEvent``,
/// ``RequestFinished``, ``RequestFailed``); one registered for ``NetworkEvent`` receives only the network events.
public class AppEvent: Mail, @unchecked Sendable {
    /// A sequence number.
    public let sequence: UInt64

    /// Creates the event.
    public init(sequence: UInt64) {
        self.sequence = sequence
    }
}

/// Demo mail: a screen was shown. Posted by ``Router``.
public final class ScreenViewed: AppEvent, @unchecked Sendable {
    /// The screen's name.
    public let screen: String

    /// Creates the event.
    public init(sequence: UInt64, screen: String) {
        self.screen = screen
        super.init(sequence: sequence)
    }

    convenience init(random: UInt64) {
        let screens = ["home", "search", "product", "cart", "checkout", "settings"]
        self.init(sequence: random, screen: screens[Int(random % UInt64(screens.count))])
    }
}

/// Demo mail: the base class of network events, itself an ``AppEvent``.
public class NetworkEvent: AppEvent, @unchecked Sendable {
    /// The request's path.
    public let path: String

    /// Creates the event.
    public init(sequence: UInt64, path: String) {
        self.path = path
        super.init(sequence: sequence)
    }

    static func randomPath(_ random: UInt64) -> String {
        let paths = ["/api/cart", "/api/login", "/api/products", "/api/search", "/api/downloads"]
        return paths[Int(random % UInt64(paths.count))]
    }
}

/// Demo mail: a request finished. Posted by ``APIClient``.
public final class RequestFinished: NetworkEvent, @unchecked Sendable {
    /// The HTTP status code.
    public let status: Int

    /// Creates the event.
    public init(sequence: UInt64, path: String, status: Int) {
        self.status = status
        super.init(sequence: sequence, path: path)
    }

    convenience init(random: UInt64) {
        self.init(sequence: random, path: NetworkEvent.randomPath(random), status: random % 10 == 0 ? 304 : 200)
    }
}

/// Demo mail: a request failed. Posted by ``APIClient``.
public final class RequestFailed: NetworkEvent, @unchecked Sendable {
    /// Why it failed.
    public let reason: String

    /// Creates the event.
    public init(sequence: UInt64, path: String, reason: String) {
        self.reason = reason
        super.init(sequence: sequence, path: path)
    }

    convenience init(random: UInt64) {
        let reasons = ["timed out", "offline", "server error"]
        self.init(
            sequence: random, path: NetworkEvent.randomPath(random), reason: reasons[Int((random >> 8) % 3)])
    }
}
