import PonyExpress
import PonyExpressMonitor
import PonyTopModel
import Testing

@testable import PonyTopUI

/// The report lists each table in `PonyTopModel`'s `DefaultOrder`, which knows no pane; the screen sorts by each pane's
/// default column. These hold the two to the same order, ties and missing values included.
@Suite("The report's orders are the panes' default orders")
struct DefaultOrderTests {
    @Test("Mail types: posts per second, largest first; ties by key")
    func mailTypes() {
        let rows =
            DashboardFixture.rows + [
                DashboardFixture.row(mailType: DashboardFixture.screen, postsPerSecond: 0),
                DashboardFixture.row(mailType: DashboardFixture.event, postsPerSecond: 0),
            ]
        for order in [rows, rows.reversed()] {
            #expect(DefaultOrder.mailTypes(order).map(\.key) == MailTypesPane.inDefaultOrder(order).map(\.key))
        }
        #expect(DefaultOrder.mailTypes(rows).first?.postsPerSecond == rows.map(\.postsPerSecond).max())
    }

    @Test("Sites: live recipients, largest first; ties by key")
    func sites() {
        var tied = DashboardFixture.cartSites[0]
        tied.site = SourceLocation(fixture: "Shop/Tied.swift:1")
        let rows = DashboardFixture.cartSites + [tied]
        for order in [rows, rows.reversed()] {
            #expect(DefaultOrder.sites(order).map(\.key) == RecipientsPane.inDefaultOrder(order).map(\.key))
        }
    }

    @Test("Queues: wait p99, largest first; a queue that delivered nothing last")
    func queues() {
        let rows = DashboardFixture.queues + [DashboardFixture.queue("app.also-idle", deliveries: 0)]
        for order in [rows, rows.reversed()] {
            #expect(DefaultOrder.queues(order).map(\.key) == QueuesPane.inDefaultOrder(order).map(\.key))
        }
        #expect(DefaultOrder.queues(rows).suffix(2).map(\.label) == ["app.also-idle", "app.idle"])
    }

    @Test("Prune groups: prunes, most first; ties by key")
    func pruneGroups() {
        let rows = PruneGroupRow.group(DashboardFixture.prunes)
        #expect(rows.count > 1)
        for order in [rows, rows.reversed()] {
            #expect(DefaultOrder.pruneGroups(order).map(\.key) == PrunesPane.inDefaultOrder(order).map(\.key))
        }
    }
}
