import PonyExpress
import PonyExpressMonitor
import PonyTopUI
import Testing

private struct Reachability: Mail {}

private final class Courier {}

private struct Parcel: VerifiedMail { typealias RequiredSender = Courier }

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

    @Test("A registration of verified mail is marked and names the sender type its mail requires")
    func verified() {
        let office = PostOffice()
        office.register { (_: Parcel, _: Courier) in }
        office.register { (_: Reachability) in }
        let rows = (office.recipients(of: Parcel.self) + office.recipients(of: Reachability.self)).map { info in
            RecipientRow(
                RecipientStats(
                    info: info, deliveries: 0, handlerLatency: nil, isDuplicate: false, handlerTime: 0,
                    maxHandlerTime: 0),
                now: info.registeredAt)
        }
        #expect(rows.map(\.markers) == [["verified"], []])
        #expect(rows.map(\.requiredSender) == ["Courier", nil])
    }
}

extension RecipientMarkersTests {
    @Test("A registration made in a scope is marked with the scope's name")
    func scoped() {
        let office = PostOffice()
        let scope = office.openScope("GET /rooms/:room/events")
        scope.run { _ = office.register { (_: Reachability) in } }
        let rows = office.recipients(of: Reachability.self).map { info in
            RecipientRow(
                RecipientStats(
                    info: info, deliveries: 0, handlerLatency: nil, isDuplicate: false, handlerTime: 0,
                    maxHandlerTime: 0),
                now: info.registeredAt)
        }
        #expect(rows.map(\.markers) == [["scope GET /rooms/:room/events"]])
        scope.end()
    }
}
