import PonyExpress

/// What the scopes of one name did with the registrations they made at one site, once each had ended and its grace
/// period passed (`MailScope`): how many left a registration alive, how many ended clean, and how many
/// of the registrations that outlived them are still registered.
public struct ScopeCounts: Sendable, Codable, Hashable {
    /// The scopes' name: a route, a screen, a job's kind.
    public let name: String
    /// Scopes of this name whose registrations at the site outlived them.
    public let leakedScopes: UInt64
    /// Scopes of this name whose registrations at the site were all gone by their check.
    public let cleanScopes: UInt64
    /// Registrations made at the site that outlived their scope of this name and are still registered.
    public let outlived: Int

    /// Creates the counts.
    ///
    /// - Parameters:
    ///   - name: The scopes' name.
    ///   - leakedScopes: Scopes that left a registration at the site alive.
    ///   - cleanScopes: Scopes whose registrations at the site were gone.
    ///   - outlived: Outlived registrations still registered.
    public init(name: String, leakedScopes: UInt64, cleanScopes: UInt64, outlived: Int) {
        self.name = name
        self.leakedScopes = leakedScopes
        self.cleanScopes = cleanScopes
        self.outlived = outlived
    }

    /// The scopes of this name that ended and were checked.
    public var endedScopes: UInt64 { leakedScopes &+ cleanScopes }
}
