import PonyExpressMonitor
import PonyExpressWire
import Testing

/// The wire's bytes for two snapshots, captured before the snapshot's rows lost their second encoding (the generic
/// `Codable` one, which wrote the same bytes as the hand-written one): recordings and viewers of earlier versions read
/// these bytes, so the one encoding left must write them unchanged.
///
/// Each golden payload is read and written back; the bytes must come back the same, string and type tables included.
/// A snapshot encoded afresh would not do: registrations carry addresses and clock times, and a dictionary's order
/// changes from one process to the next, so the goldens were made with one mail type's recipients and one queue label
/// per mail type, whose order is fixed (see ``WireGolden``).
@Suite("the wire's bytes")
struct WireGoldenTests {
    @Test("read a snapshot's payload and write it back byte for byte", arguments: WireGolden.all)
    func sameBytes(_ golden: WireGolden) throws {
        let bytes = golden.bytes
        #expect(!bytes.isEmpty)
        let frame = try WireDecoder.decode(SnapshotFrame.self, from: bytes)
        #expect(frame.takenAt == 1_700_000_000.5)
        let written = try WireEncoder.encode(frame)
        #expect(written.count == bytes.count, "\(golden.name)")
        if let first = zip(written, bytes).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("\(golden.name): byte \(first.offset) is \(first.element.0), was \(first.element.1)")
        }
        #expect(written == bytes)
    }

    /// The requests a viewer sends, as an agent of each minor version reads them: a new request may only be added, and
    /// the bytes of the old ones never change.
    @Test("the requests' bytes: the older ones as agents of 1.0 to 1.5 read them, 1.6's judge as first written")
    func requestBytes() throws {
        var overrides = RuleOverrides()
        overrides.disable([.growingRegistrations])
        try overrides.set("oversubscribed.threshold", to: 50)
        let requests: [(Request, String)] = [
            (.snapshot(recipientsOf: ["App.Ping"]), "snapshot"),
            (.fullSnapshot, "fullSnapshot"),
            (.resetStatistics, "resetStatistics"),
            (.keepAlive, "keepAlive"),
            (.judge(overrides), "judge"),
            (.includeRuleFacts, "includeRuleFacts"),
        ]
        for (request, name) in requests {
            let payload = try request.frame.payload
            let hex = payload.map {
                String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
            }
            .joined()
            #expect(hex == Self.requestGoldens[name], "\(name): \(hex)")
            #expect(try WireDecoder.decode(Request.self, from: payload) == request)
        }
    }

    /// Each request's payload in hex, captured when each was added (`includeRuleFacts` at 1.7, `judge` at 1.6; the
    /// others, which a case is encoded by its name and adding one changes no other's bytes, as agents of 1.0 to 1.5
    /// read them).
    static let requestGoldens: [String: String] = [
        "snapshot": "0308736e617073686f740c726563697069656e74734f66084170702e50696e6700010007010104010202",
        "fullSnapshot": "010c66756c6c536e617073686f740001000200",
        "resetStatistics": "010f7265736574537461746973746963730001000200",
        "keepAlive": "01096b656570416c6976650001000200",
        "includeRuleFacts": "0110696e636c75646552756c6546616374730001000200",
        "judge":
            "07056a75646765025f300864697361626c65641467726f77696e67526567697374726174696f6e7307656e61626c65640a706172"
            + "616d6574657273186f766572737562736372696265642e7468726573686f6c640001001a010117030204010203040200050c01"
            + "06090000000000004940",
    ]
}
