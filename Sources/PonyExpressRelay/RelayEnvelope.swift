import Foundation

/// The layout of what one `NOTIFY` carries, as JSON: the relay's format version, the sender (relay id, host, process
/// id, instance), the mail type's stable name and version, a sequence number, a timestamp, the mail as a JSON text,
/// and the signature of all of them:
/// `{"f":2,"r":"…","h":"web-1","p":4242,"i":"web-1:4242","t":"App.CacheInvalidated","v":1,"n":17,"s":…,"m":"{…}","g":"…"}`.
///
/// The mail travels as a string (`m`) rather than a nested object so that the signature covers the very bytes the
/// receiver decodes: a JSON object could be re-ordered or re-spaced between signing and checking, a string cannot.
/// A relay refuses (and counts) envelopes of another format, among them format 1, which had no signature.
package enum RelayEnvelope {
    package static let format = 2
}

/// One envelope, as sent and as read.
package struct Envelope: Codable, Sendable {
    /// ``RelayEnvelope/format``.
    package var f: Int
    /// The sending relay's random id.
    package var r: String
    /// The sending host.
    package var h: String
    /// The sending process id.
    package var p: Int32
    /// The sending relay's instance name.
    package var i: String
    /// The mail type's stable name.
    package var t: String
    /// The mail type's format version.
    package var v: Int
    /// The sending relay's sequence number: makes each payload unique (PostgreSQL folds identical payloads sent in one
    /// transaction into one), and lets a receiver refuse a replay.
    package var n: UInt64
    /// When it was posted: wall-clock nanoseconds since 1970.
    package var s: UInt64
    /// The mail, encoded as JSON, exactly the bytes that are signed and decoded.
    package var m: String
    /// The HMAC-SHA256 signature in base64, absent when the sender has no key.
    package var g: String?

    package init(
        f: Int, r: String, h: String, p: Int32, i: String, t: String, v: Int, n: UInt64, s: UInt64, m: String,
        g: String? = nil
    ) {
        self.f = f
        self.r = r
        self.h = h
        self.p = p
        self.i = i
        self.t = t
        self.v = v
        self.n = n
        self.s = s
        self.m = m
        self.g = g
    }
}
