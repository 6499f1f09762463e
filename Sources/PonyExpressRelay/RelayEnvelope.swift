import Foundation

/// The layout of what one `NOTIFY` carries: the relay's format version, the mail type's stable name and version,
/// who posted it and when, and the mail itself, as JSON:
/// `{"f":1,"t":"App.CacheInvalidated","v":1,"r":"…","h":"web-1","p":4242,"i":"web-1:4242","n":17,"s":…,"m":{…}}`.
/// A relay ignores (and counts) envelopes of another format.
enum RelayEnvelope {
    static let format = 1
}

/// The envelope without its mail: read first, to find the mail type.
struct EnvelopeHeader: Codable, Sendable {
    /// ``RelayEnvelope/format``.
    var f: Int
    /// The mail type's stable name.
    var t: String
    /// The mail type's format version.
    var v: Int
    /// The sending relay's random id.
    var r: String
    /// The sending host.
    var h: String
    /// The sending process id.
    var p: Int32
    /// The sending relay's instance name.
    var i: String
    /// The sending relay's sequence number: makes each payload unique, since PostgreSQL folds identical payloads
    /// sent in one transaction into one.
    var n: UInt64
    /// When it was posted: wall-clock nanoseconds since 1970.
    var s: UInt64
}

/// The whole envelope, header and mail, as it is encoded: the header's fields and `m` side by side in one object.
struct EnvelopeWithMail<M: Encodable>: Encodable {
    var header: EnvelopeHeader
    var mail: M

    private enum MailKey: String, CodingKey {
        case m
    }

    func encode(to encoder: any Encoder) throws {
        try header.encode(to: encoder)
        var container = encoder.container(keyedBy: MailKey.self)
        try container.encode(mail, forKey: .m)
    }
}

/// Only the mail of an envelope, read once the header named a known type.
struct EnvelopeMail<M: Decodable>: Decodable {
    var m: M
}
