import PonyExpress
import PonyExpressWire
import Testing

@testable import PonyExpressMonitor

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
    @Test("the requests' bytes: the older ones as agents of 1.0 to 1.5 read them, the later ones as first written")
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
            (.factsToJudge(RuleFacts.Floors(livingCountedAbove: 50, growthFloor: 8)), "factsToJudge"),
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

    /// The leak rule's facts, as protocol 1.8 first wrote them: a recording made today is read by every later viewer.
    @Test("the leak rule's facts (1.8): their bytes as first written, read back and written again the same")
    func leakFactsBytes() throws {
        let cart = TypeIdentity(SnapshotFixture.CartUpdated.self)
        let site = SourceLocation(fileID: "App/Screen.swift", line: 12, filePath: "/src/App/Sources/App/Screen.swift")
        let facts = SnapshotFixture.leakFacts(cart: cart, site: site)
        let bytes = try WireEncoder.encode(facts)
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        #expect(hex == Self.leakFactsGolden, "\(hex)")
        // Read back (a mail type read from the wire is known by name, not by type, so it compares by its bytes).
        let back = try WireDecoder.decode(GrowingRegistrationsRule.Facts.self, from: bytes)
        #expect(try WireEncoder.encode(back) == bytes)
        #expect(back.sites.map(\.registeredSeconds) == [[1, 2, 3]])
        #expect(back.changes.map(\.seconds) == [[-40, 1]])
        #expect(back.changesLostAt == 3)
    }

    /// A crowd's live series and a site's prunes by second, as protocol 1.9 first wrote them; without them (a 1.8
    /// agent's), the same bytes as before.
    @Test("1.9's crowd and prune series: their bytes as first written; absent, the bytes 1.8 wrote")
    func historySeriesBytes() throws {
        let cart = TypeIdentity(SnapshotFixture.CartUpdated.self)
        let site = SourceLocation(fileID: "App/Screen.swift", line: 12)
        var crowd = OversubscribedRule.Crowd(
            mailType: cart, living: 150, topSite: site, livingFromTopSite: 150, liveSeries: [90, 150])
        var prunes = HighPruneRateRule.SitePrunes(
            mailType: cart, site: site, kind: .block, prunes: 40, perSecond: [0, 20, 20])
        func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined()
        }
        let crowdBytes = try WireEncoder.encode(crowd)
        let pruneBytes = try WireEncoder.encode(prunes)
        #expect(hex(crowdBytes) == Self.seriesGoldens[0], "\(hex(crowdBytes))")
        #expect(hex(pruneBytes) == Self.seriesGoldens[1], "\(hex(pruneBytes))")
        #expect(try WireDecoder.decode(OversubscribedRule.Crowd.self, from: crowdBytes).liveSeries == [90, 150])
        #expect(try WireDecoder.decode(HighPruneRateRule.SitePrunes.self, from: pruneBytes).perSecond == [0, 20, 20])
        crowd.liveSeries = nil
        prunes.perSecond = nil
        // The types as 1.8 declared them.
        struct CrowdOf18: Codable {
            var mailType: TypeIdentity, living: Int, topSite: PonyExpress.SourceLocation?, livingFromTopSite: Int
        }
        struct SitePrunesOf18: Codable {
            var mailType: TypeIdentity, site: PonyExpress.SourceLocation, kind: RecipientKind, prunes: UInt64
        }
        #expect(
            try WireEncoder.encode(crowd)
                == WireEncoder.encode(CrowdOf18(mailType: cart, living: 150, topSite: site, livingFromTopSite: 150)))
        #expect(
            try WireEncoder.encode(prunes)
                == WireEncoder.encode(SitePrunesOf18(mailType: cart, site: site, kind: .block, prunes: 40)))
    }

    static let seriesGoldens = [
        "0a086d61696c547970650b436172745570646174656430506f6e79457870726573735769726554657374732e536e617073686f74"
            + "466978747572652e4361727455706461746564066c6976696e6707746f70536974650666696c654944104170702f53637265656e"
            + "2e7377696674046c696e65116c6976696e6746726f6d546f70536974650a6c697665536572696573010102050002000303ac0204"
            + "080205020607020c0803ac0209080203b40103ac02",
        "0b086d61696c547970650b436172745570646174656430506f6e79457870726573735769726554657374732e536e617073686f74"
            + "466978747572652e436172745570646174656404736974650666696c654944104170702f53637265656e2e7377696674046c696e"
            + "65046b696e6405626c6f636b067072756e6573097065725365636f6e640101020500020003080204020506020c07050108020009"
            + "02280a0803020002140214",
    ]

    static let leakFactsGolden =
        "210b67726f777468466c6f6f72057369746573086d61696c547970650b436172745570646174656430506f6e7945787072657373"
        + "5769726554657374732e536e617073686f74466978747572652e436172745570646174656404736974650666696c654944104170"
        + "702f53637265656e2e7377696674046c696e650866696c6550617468212f7372632f4170702f536f75726365732f4170702f5363"
        + "7265656e2e7377696674046b696e64066f626a656374025f300653637265656e2b506f6e79457870726573735769726554657374"
        + "732e536e617073686f74466978747572652e53637265656e0b66697273745365636f6e64046c6976650a6c697665536572696573"
        + "11726567697374657265645365636f6e64731072656769737465726564436f756e747310726567697374657265644265666f7265"
        + "096f6c64657374416765096d656469616e416765096c69666574696d657305656e646564066d656469616e03703930146f6c6465"
        + "725468616e5039304c69666574696d65076368616e676573077365636f6e647305616c6976650d6368616e6765734c6f73744174"
        + "0203040e0f04000202016301610d020200050b0306020708020c09020a0b08010c05010d020110020311021c120a040204020a02"
        + "12021c13080302020204020614080302060208020a150204160680f882ad16170680a8d6b907180f031902031a04c0843d1b0480"
        + "897a1c021a1d2a012805020200050b0306020708020c09020a0b08010c05010d02011e0602024f02021f060202000206200206"

    /// Each request's payload in hex, captured when each was added (`factsToJudge` at 1.9, `includeRuleFacts` at 1.7,
    /// `judge` at 1.6; the
    /// others, which a case is encoded by its name and adding one changes no other's bytes, as agents of 1.0 to 1.5
    /// read them).
    static let requestGoldens: [String: String] = [
        "snapshot": "0308736e617073686f740c726563697069656e74734f66084170702e50696e6700010007010104010202",
        "fullSnapshot": "010c66756c6c536e617073686f740001000200",
        "resetStatistics": "010f7265736574537461746973746963730001000200",
        "keepAlive": "01096b656570416c6976650001000200",
        "includeRuleFacts": "0110696e636c75646552756c6546616374730001000200",
        "factsToJudge":
            "040c6661637473546f4a75646765025f30126c6976696e67436f756e74656441626f76650b67726f777468466c6f6f7200010"
            + "00b01010802020264030210",
        "judge":
            "07056a75646765025f300864697361626c65641467726f77696e67526567697374726174696f6e7307656e61626c65640a706172"
            + "616d6574657273186f766572737562736372696265642e7468726573686f6c640001001a010117030204010203040200050c01"
            + "06090000000000004940",
    ]
}
