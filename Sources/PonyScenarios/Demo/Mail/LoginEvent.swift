import PonyExpress

/// Demo mail: a user signed in. Posted by ``AuthService``.
public struct LoginEvent: Mail, Hashable, Sendable, Codable {
    /// How the user signed in.
    public enum Method: Hashable, Sendable, CaseIterable, Codable {
        /// A password.
        case password
        /// A passkey.
        case passkey
        /// A single sign-on provider.
        case singleSignOn
    }

    /// The user's id.
    public let userID: Int
    /// How the user signed in.
    public let method: Method

    /// Creates the event.
    public init(userID: Int, method: Method) {
        self.userID = userID
        self.method = method
    }

    init(random: UInt64) {
        self.init(
            userID: Int(random % 10_000), method: Method.allCases[Int((random >> 32) % UInt64(Method.allCases.count))])
    }
}
