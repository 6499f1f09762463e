import Crypto
import Foundation

/// Signs and checks envelopes with a fleet's key (HMAC-SHA256).
///
/// The signed message is every field of the envelope but the signature, each preceded by its length (so that no
/// two envelopes sign the same bytes by moving text from one field to the next), after a label and the channel (so
/// that an envelope captured on one channel is not valid on another that shares the key).
package struct EnvelopeSigner: Sendable {
    private let key: SymmetricKey
    private let channel: String

    package init(key: RelayKey, channel: String) {
        self.key = SymmetricKey(data: key.bytes)
        self.channel = channel
    }

    /// The signature of an envelope, in base64.
    package func signature(of envelope: Envelope) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: message(envelope), using: key)).base64EncodedString()
    }

    /// Whether the envelope carries its valid signature (compared in constant time).
    package func isValid(_ envelope: Envelope) -> Bool {
        guard let signature = envelope.g, let code = Data(base64Encoded: signature),
            code.count == SHA256.byteCount
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message(envelope), using: key)
    }

    private func message(_ envelope: Envelope) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96 + envelope.m.utf8.count + envelope.t.utf8.count + envelope.i.utf8.count)
        func field(_ text: some StringProtocol) {
            let count = UInt32(text.utf8.count)
            bytes.append(contentsOf: [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF)])
            bytes.append(UInt8(count & 0xFF))
            bytes.append(contentsOf: text.utf8)
        }
        field("PonyExpressRelay envelope")
        field(channel)
        field(String(envelope.f))
        field(envelope.r)
        field(envelope.h)
        field(String(envelope.p))
        field(envelope.i)
        field(envelope.t)
        field(String(envelope.v))
        field(String(envelope.n))
        field(String(envelope.s))
        field(envelope.m)
        return bytes
    }
}
