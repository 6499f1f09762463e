import Foundation
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

// The monitor's examples in README.md ("The monitor"), the module's article and the Finding rules article, held
// verbatim between `// README begin` and `// README end` (DocumentedCodeTests compares them with the documents).

/// What the examples print, recorded.
private let printed = Tally<String>()

private func print(_ items: Any...) {
    printed.add(items.map { "\($0)" }.joined(separator: " "))
}

// README begin
struct CartChanged: Mail { var items: Int }

// README end
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleReportsOverSubscription() throws {
        // README begin
        let office = PostOffice()
        var settings = MonitorSettings()
        settings.oversubscriptionThreshold = 50  // the default is 100, as in uber's Signals
        let monitor = PostOfficeMonitor(settings: settings)
        monitor.attach(to: office)
        for _ in 0..<60 { office.register { (change: CartChanged) in _ = change.items } }
        office.post(CartChanged(items: 3))
        let snapshot = monitor.snapshot()
        print(snapshot.totals.posts, "posts,", snapshot.totals.deliveries, "deliveries")
        for finding in snapshot.findings { print(finding.kind, finding.explanation) }
        // oversubscribed CartChanged has 60 live recipients, more than the threshold of 50
        monitor.detach()
        // README end

        #expect(snapshot.totals.deliveries == 60)
        let finding = try #require(snapshot.findings.first)
        #expect(snapshot.findings.count == 1)
        #expect(finding.kind == .oversubscribed)
        #expect(finding.explanation == "CartChanged has 60 live recipients, more than the threshold of 50")
        #expect(
            printed.all.contains("oversubscribed CartChanged has 60 live recipients, more than the threshold of 50"))
    }

    @Test func theArticleExampleListsFindingsWithTheirSites() throws {
        // Here the file's `print` does not win the overload against the standard library's (the `??` argument
        // tips it), so the example's printing is recorded by a local one, which shadows both.
        func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        // README begin
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        // README end
        let blocks = (0..<101).map { _ in office.register { (_: ArticleMail) in } }
        // README begin
        // ... the app registers recipients and posts mail ...
        let snapshot = monitor.snapshot()
        for finding in snapshot.findings {
            print(finding.kind, finding.site?.description ?? "-", finding.explanation)
        }
        monitor.detach()
        // README end
        #expect(blocks.count == 101)
        let line = try #require(printed.all.first { $0.contains("ArticleMail has 101 live recipients") })
        #expect(line.hasPrefix("oversubscribed PonyExpressMonitorTests/ReadmeExampleTests.swift:"), "\(line)")
    }

    @Test func theFindingRulesArticleSetsRulesByPropertyAndByName() throws {
        // README begin
        var settings = MonitorSettings()
        settings.disabledRules = [.highPruneRate]  // off
        settings.stalledQueueWait = 0.5  // a typed property...
        try settings.setParameter(named: "growingRegistrations.minimumGrowth", to: 20)  // ...or any parameter by name
        let monitor = PostOfficeMonitor(settings: settings)
        // README end
        #expect(monitor.settings.disabledRules == [.highPruneRate])
        #expect(monitor.settings.stalledQueueWait == 0.5)
        let minimumGrowth = try #require(
            FindingRules.parameters.first { $0.name == "growingRegistrations.minimumGrowth" })
        #expect(monitor.settings[minimumGrowth] == 20)
    }
}

private struct ArticleMail: Mail {}

// The Finding rules article's first step in adding a rule: a kind and the names of its evidence.
// README begin
extension Finding.Kind {
    /// Mail posted with no recipient at all, again and again.
    public static let unheardMail: Self = "unheardMail"
}

extension Evidence.Name {
    /// Posts of the mail type in the long window that reached no recipient.
    public static let unheardPosts: Self = "unheard posts"
}
// README end

@Suite struct AddingARuleTests {
    @Test func aNewKindAndEvidenceNameAreDeclaredByStringLiteral() {
        #expect(Finding.Kind.unheardMail == "unheardMail")
        #expect(Finding.Kind.unheardMail != .growingRegistrations)
        #expect(Evidence.Name.unheardPosts == "unheard posts")
    }
}
