/// One frame: a 4-byte big-endian length, then that many bytes: a kind byte and the kind's payload.
///
/// The same frames go over a socket and into a recording.
package struct Frame: Equatable, Sendable {
    /// What a frame carries.
    package enum Kind: UInt8, Sendable {
        /// Agent to viewer, first: ``Hello``.
        case hello = 1
        /// Agent to viewer: a ``SnapshotFrame``.
        case snapshot = 2
        /// Viewer to agent: a ``Request``.
        case request = 3
        /// Either way, last: a UTF-8 reason, then the sender closes.
        case error = 4
    }

    /// The largest frame, length field excluded: anything longer ends the connection before it is read.
    package static let maximumLength = 16 << 20
    /// The size of the length field.
    package static let headerLength = 4

    package let kind: Kind
    package let payload: [UInt8]

    package init(kind: Kind, payload: [UInt8]) {
        self.kind = kind
        self.payload = payload
    }

    /// What comes before the payload on the wire: the length field (the length of kind and payload, big-endian),
    /// then the kind. The one place a frame's layout is written; ``bytes`` and the agent's channel encoder both use
    /// it, the encoder without copying the payload.
    package var prefix: [UInt8] {
        let length = payload.count + 1
        var prefix: [UInt8] = []
        prefix.reserveCapacity(Self.headerLength + 1)
        for shift in stride(from: 24, through: 0, by: -8) { prefix.append(UInt8(truncatingIfNeeded: length >> shift)) }
        prefix.append(kind.rawValue)
        return prefix
    }

    /// The frame as it goes on the wire, length field included.
    package var bytes: [UInt8] { prefix + payload }

    /// Reads a length field.
    ///
    /// - Parameter header: At least ``headerLength`` bytes.
    /// - Returns: The length of the frame's body (kind byte and payload).
    /// - Throws: ``WireError/frameTooLarge(_:)`` over ``maximumLength``, ``WireError/malformed(_:)`` for an empty one.
    package static func bodyLength(_ header: some Collection<UInt8>) throws -> Int {
        let length = header.prefix(headerLength).reduce(0) { $0 << 8 | Int($1) }
        guard length <= maximumLength else { throw WireError.frameTooLarge(length) }
        guard length > 0 else { throw WireError.malformed("an empty frame") }
        return length
    }

    /// Reads a frame's body.
    ///
    /// - Parameter body: The kind byte and payload.
    /// - Throws: ``WireError/malformed(_:)`` for an unknown kind.
    package init(body: some Collection<UInt8>) throws {
        guard let first = body.first, let kind = Kind(rawValue: first) else {
            throw WireError.malformed("unknown frame kind \(body.first.map(String.init) ?? "none")")
        }
        self.init(kind: kind, payload: Array(body.dropFirst()))
    }
}
