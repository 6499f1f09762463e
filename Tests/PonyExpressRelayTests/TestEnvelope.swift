import Foundation
import PonyExpressMonitor

@testable import PonyExpressRelay

/// Envelopes as a fleet member, an outsider or a replayer would write them, for `NOTIFY` from psql.
enum TestEnvelope {
    /// An envelope's JSON: signed with `key` (none: unsigned), stamped now unless `stamp` says otherwise.
    static func payload(
        format: Int = RelayEnvelope.format, relayId: String = "psql",
        type: String = "PonyExpressRelayTests.CacheInvalidated",
        version: Int = 1, sequence: UInt64 = 1, stamp: UInt64 = WallClock.nanoseconds(), mail: String,
        key: RelayKey? = .test, channel: String = "relay_tests"
    ) -> String {
        var envelope = Envelope(
            f: format, r: relayId, h: "h", p: 1, i: relayId, t: type, v: version, n: sequence, s: stamp, m: mail)
        if let key { envelope.g = EnvelopeSigner(key: key, channel: channel).signature(of: envelope) }
        return String(decoding: (try? JSONEncoder().encode(envelope)) ?? Data(), as: UTF8.self)
    }

    /// `NOTIFY channel, 'payload'`, quoted for SQL.
    static func notify(_ payload: String, channel: String = "relay_tests") -> String {
        "NOTIFY \(channel), '\(payload.replacingOccurrences(of: "'", with: "''"))'"
    }
}
