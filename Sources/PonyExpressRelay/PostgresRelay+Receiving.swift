import Foundation
import PonyExpress
import PonyExpressMonitor

extension PostgresRelay {
    /// Why an arrival was refused.
    enum Refusal: CustomStringConvertible {
        case notAnEnvelope(bytes: Int)
        case format(Int)
        case unsigned(relayId: String)
        case forged(relayId: String)
        case replayed(relayId: String, sequence: UInt64)
        case stale(relayId: String, byMilliseconds: UInt64)
        case future(relayId: String, byMilliseconds: UInt64)
        case unknownType(String)
        case version(String, got: Int, expected: Int)
        case undecodable(String)

        var description: String {
            switch self {
            case .notAnEnvelope(let bytes): "a \(bytes)-byte payload that is not a relay envelope"
            case .format(let format): "an envelope of format \(format), expected \(RelayEnvelope.format)"
            case .unsigned(let relay): "an unsigned envelope naming relay \(Self.printable(relay))"
            case .forged(let relay): "an envelope naming relay \(Self.printable(relay)) with a wrong signature"
            case .replayed(let relay, let sequence):
                "a replay of relay \(Self.printable(relay))'s envelope \(sequence)"
            case .stale(let relay, let milliseconds):
                "relay \(Self.printable(relay))'s envelope stamped \(milliseconds) ms ago, outside the window"
            case .future(let relay, let milliseconds):
                "relay \(Self.printable(relay))'s envelope stamped \(milliseconds) ms ahead, outside the window"
            case .unknownType(let name): "mail of type \(Self.printable(name)), which this process does not share"
            case .version(let name, let got, let expected):
                "\(Self.printable(name)) version \(got), expected version \(expected)"
            case .undecodable(let name): "\(Self.printable(name)) whose mail does not decode"
            }
        }

        /// Counts the refusal under its reason.
        func count(in refusals: inout RelayRefusals) {
            switch self {
            case .notAnEnvelope: refusals.notAnEnvelope += 1
            case .format: refusals.otherFormat += 1
            case .unsigned: refusals.unsigned += 1
            case .forged: refusals.forged += 1
            case .replayed: refusals.replayed += 1
            case .stale: refusals.stale += 1
            case .future: refusals.future += 1
            case .unknownType: refusals.unknownType += 1
            case .version: refusals.otherVersion += 1
            case .undecodable: refusals.undecodable += 1
            }
        }

        /// Text from another process, with control characters escaped and cut to 200 characters.
        static func printable(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars.prefix(200) {
                if scalar.properties.generalCategory == .control {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }

    /// Posts an arriving envelope's mail, or counts and logs why not.
    ///
    /// The order matters: nothing an unauthenticated envelope says (its relay id, its type, its timestamp) is used
    /// before its signature is checked, so that it can neither reach the sender cache nor move a figure.
    func receive(_ payload: String) {
        // Not a JSON object: refused without a decoder, the cheap case of a flood.
        guard payload.utf8.first == UInt8(ascii: "{"),
            let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(payload.utf8))
        else {
            return refuse(.notAnEnvelope(bytes: payload.utf8.count))
        }
        guard envelope.f == RelayEnvelope.format else { return refuse(.format(envelope.f)) }
        if let signer {
            guard envelope.g != nil else { return refuse(.unsigned(relayId: envelope.r)) }
            guard signer.isValid(envelope) else { return refuse(.forged(relayId: envelope.r)) }
        }
        if envelope.r == identity.relayId { return }
        let now = WallClock.nanoseconds()
        if envelope.s < now, now - envelope.s > replayWindow {
            return refuse(.stale(relayId: envelope.r, byMilliseconds: (now - envelope.s) / 1_000_000))
        }
        if envelope.s > now, envelope.s - now > replayWindow {
            return refuse(.future(relayId: envelope.r, byMilliseconds: (envelope.s - now) / 1_000_000))
        }
        let admission = state.withLock { $0.knownRelays.admit(envelope, now: now) }
        guard case .admitted(let sender) = admission else {
            return refuse(.replayed(relayId: envelope.r, sequence: envelope.n))
        }
        guard let shared = state.withLock({ $0.sharedByName[envelope.t] }) else {
            return refuse(.unknownType(envelope.t))
        }
        guard envelope.v == shared.version else {
            return refuse(.version(envelope.t, got: envelope.v, expected: shared.version))
        }
        do {
            try shared.post(Data(envelope.m.utf8), office, sender)
        } catch {
            return refuse(.undecodable(envelope.t))
        }
        // Within the window, by the check above: a skewed clock is refused, never a lag of years.
        shared.countReceived(lag: now.elapsed(since: envelope.s))
    }

    private func refuse(_ refusal: Refusal) {
        let count = state.withLock { state in
            refusal.count(in: &state.statistics.refusals)
            state.statistics.rejected += 1
            return state.statistics.rejected
        }
        // The first ten, then one in a thousand: a flood of bad payloads must not flood the log.
        if count <= 10 || count % 1_000 == 0 {
            logger.warning("relay: refused \(refusal) (\(count) refused so far)")
        }
    }
}
