import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import PonyTopModel
import Testing

@testable import PonyTopUI

private struct StockMail: Mail {}

private final class Cart: Sendable {
    func receive(_: StockMail) {}
}

private final class Shelf: Sendable {
    func receive(_: StockMail) {}
}

/// One line that registers whatever it is given, as an app's generic helper does: two object types, one site.
private func subscribe<T: AnyObject & Sendable>(
    _ object: T, _ method: @escaping (T) -> (StockMail) -> Void, to office: PostOffice
)
    -> RecipientId
{
    office.register(object, method)
}

/// A site row's growth is its own: rows are joined to the monitor's site statistics by the monitor's own key, which
/// tells two object types registered from one line apart.
@Suite("Joining site rows to their statistics")
struct SiteJoinTests {
    @Test("a helper that registers two object types from one line shows each type's own growth")
    func twoObjectTypesFromOneLine() throws {
        let office = PostOffice()
        let clock = ManualClock()
        let monitor = PostOfficeMonitor(clock: clock)
        monitor.attach(to: office)
        defer { monitor.detach() }
        var kept: [AnyObject] = []
        // Three shelves at the start and no more; a cart more every second.
        for _ in 0..<3 {
            let shelf = Shelf()
            kept.append(shelf)
            _ = subscribe(shelf, Shelf.receive, to: office)
        }
        clock.advance(seconds: 1)
        for _ in 0..<12 {
            let cart = Cart()
            kept.append(cart)
            _ = subscribe(cart, Cart.receive, to: office)
            clock.advance(seconds: 1)
        }
        let snapshot = monitor.snapshot()
        let rows = SiteRow.rows(of: TypeIdentity(StockMail.self), in: snapshot)
        let carts = try #require(rows.first { $0.objectType == "Cart" })
        let shelves = try #require(rows.first { $0.objectType == "Shelf" })
        #expect(carts.site == shelves.site, "both registered from the helper's one line")
        #expect(carts.recipients == 12)
        #expect(shelves.recipients == 3)
        #expect(carts.growth10s == 10, "a cart more in each of the last 10 seconds")
        #expect(shelves.growth10s == 0, "no shelf registered in the last 10 seconds")
        withExtendedLifetime(kept) {}
    }
}
