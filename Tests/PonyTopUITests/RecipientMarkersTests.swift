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
            RecipientStats(
                info: info, deliveries: 1, handlerLatency: nil, isDuplicate: false, handlerTime: 1,
                maxHandlerTime: 1, replays: UInt64(index))
        }
        #expect(rows.map(\.markers) == [[], ["once", "replay", "over limit", "1 replay"]])
    }

    @Test("A registration of verified mail is marked and names the sender type its mail requires")
    func verified() {
        let office = PostOffice()
        office.register { (_: Parcel, _: Courier) in }
        office.register { (_: Reachability) in }
        let rows = (office.recipients(of: Parcel.self) + office.recipients(of: Reachability.self)).map { info in
            RecipientStats(
                info: info, deliveries: 0, handlerLatency: nil, isDuplicate: false, handlerTime: 0,
                maxHandlerTime: 0)
        }
        #expect(rows.map(\.markers) == [["verified"], []])
        #expect(rows.map(\.info.requiredSender?.name) == ["Courier", nil])
    }
}

extension RecipientMarkersTests {
    @Test("A registration made in a scope is marked with the scope's name")
    func scoped() {
        let office = PostOffice()
        let scope = office.openScope("GET /rooms/:room/events")
        scope.run { _ = office.register { (_: Reachability) in } }
        let rows = office.recipients(of: Reachability.self).map { info in
            RecipientStats(
                info: info, deliveries: 0, handlerLatency: nil, isDuplicate: false, handlerTime: 0,
                maxHandlerTime: 0)
        }
        #expect(rows.map(\.markers) == [["scope GET /rooms/:room/events"]])
        scope.end()
    }
}

extension RecipientMarkersTests {
    @Test("A site's row and details count its scopes: leaked of ended, clean, and the outlived still registered")
    func scopeCounts() throws {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        for request in 0..<5 {
            office.scope("GET /cart/updates", grace: .zero) {
                let id = office.register { (_: Reachability) in }
                if request != 2 { office.unregister(id) }
            }
        }
        let snapshot = monitor.snapshot()
        let status = SourceStatus(
            name: "test", phase: "one", phaseIndex: 0, phaseCount: 1, isPaused: false, isFinished: false)
        var state = AppState()
        var dashboard = Dashboard(snapshot: snapshot, status: status, state: state)
        let site = try #require(dashboard.sites.first)
        #expect(site.scopes == [ScopeCounts(name: "GET /cart/updates", leakedScopes: 1, cleanScopes: 4, outlived: 1)])
        #expect(site.scopeSummary == "scope GET /cart/updates 1/5 leaked")

        _ = state.press(.enter, on: dashboard)
        dashboard = Dashboard(snapshot: snapshot, status: status, state: state)
        let renderer = Renderer(glyphs: .unicode)
        let table = renderer.render(dashboard, state: state, width: 200, height: 60)
        #expect(table.text.contains("block scope GET /cart/updates 1/5 leaked"), "\(table.text)")
        _ = state.press(.character("d"), on: dashboard)
        let details = renderer.render(dashboard, state: state, width: 200, height: 60)
        #expect(
            details.text.contains(
                "scopes          GET /cart/updates: 5 ended, 1 leaked, 4 clean, 1 registration outlived and still "
                    + "registered"),
            "\(details.text)")
    }
}
