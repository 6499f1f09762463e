/// Arrivals a relay refused, by reason: none of them was posted, entered the sender cache or moved a figure.
///
/// With a key (``RelayConfiguration/Authentication/key(_:)``), anything a role without it sends on the channel ends
/// here: ``unsigned`` or ``forged`` when it pretends to be an envelope, ``notAnEnvelope`` otherwise. ``replayed``,
/// ``stale`` and ``future`` count signed envelopes sent again or stamped outside the time window: a replay, or a
/// clock between hosts that is off by more than the window.
public struct RelayRefusals: Sendable, Equatable, Codable {
    /// Not JSON, or not an envelope's fields.
    public var notAnEnvelope: UInt64 = 0
    /// An envelope of another format (format 1 had no signature).
    public var otherFormat: UInt64 = 0
    /// An envelope without a signature, to a relay with a key.
    public var unsigned: UInt64 = 0
    /// An envelope whose signature is not the key's for its fields.
    public var forged: UInt64 = 0
    /// A signed envelope whose relay and sequence number were already seen.
    public var replayed: UInt64 = 0
    /// A signed envelope stamped more than the window before this host's clock.
    public var stale: UInt64 = 0
    /// A signed envelope stamped more than the window after this host's clock.
    public var future: UInt64 = 0
    /// A mail type this process does not share.
    public var unknownType: UInt64 = 0
    /// A shared type's other version.
    public var otherVersion: UInt64 = 0
    /// Mail that does not decode as its type.
    public var undecodable: UInt64 = 0

    /// Creates counts of zero.
    public init() {}

    /// Every refusal.
    public var total: UInt64 {
        notAnEnvelope + otherFormat + unsigned + forged + replayed + stale + future + unknownType + otherVersion
            + undecodable
    }
}
