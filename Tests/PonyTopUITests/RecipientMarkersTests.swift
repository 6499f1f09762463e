import PonyExpress
import PonyExpressMonitor
import PonyTopUI
import Testing

private struct Reachability: Mail {}

@Suite("Recipient markers")
struct RecipientMarkersTests {
    @Test("A once, replay or over-limit registration, and its replays, are marked in its row")
    func markers() {
        let office = PostOffice()
        office.setRecipientLimit(1, for: Reachability.self)
        office.register { (_: Reachability) in }
        office.register(options: [.once, .replay]) { (_: Reachability) in }
        let infos = office.recipients(of: Reachability.self)
        let rows = infos.enumerated().map { index, info in
            RecipientRow(
                RecipientStats(
                    info: info, deliveries: 1, handlerLatency: nil, isDuplicate: false, handlerTime: 1,
                    maxHandlerTime: 1, replays: UInt64(index)),
                now: info.registeredAt)
        }
        #expect(rows.map(\.markers) == [[], ["once", "replay", "over limit", "1 replay"]])
    }
}
