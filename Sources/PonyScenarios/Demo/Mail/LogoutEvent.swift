import PonyExpress

/// Demo mail: a user signed out. Posted by ``AuthService``.
public struct LogoutEvent: Mail, Hashable, Sendable, Codable {
    /// The user's id.
    public let userID: Int

    /// Creates the event.
    public init(userID: Int) {
        self.userID = userID
    }

    init(random: UInt64) {
        self.init(userID: Int(random % 10_000))
    }
}
