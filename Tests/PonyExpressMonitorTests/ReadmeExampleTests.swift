import Foundation
import PonyExpress
import PonyExpressMonitor
import Testing

private struct CartChanged: Mail { var items: Int }

/// The example in README.md, section "The monitor", verbatim between the markers, so that it cannot rot.
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
    }

    @Test func theReadmeShowsTheSameCodeAsThisTest() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: tests, encoding: .utf8)

        let section = try #require(readme.components(separatedBy: "## The monitor").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first)
        let readmeLines = block.components(separatedBy: "```")[0].split(
            separator: "\n", omittingEmptySubsequences: false)
        let testBody = try #require(source.components(separatedBy: "// README begin\n").dropFirst().first)
        let testLines = testBody.components(separatedBy: "        // README end")[0]
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? $0.dropFirst(8) : $0 }

        let readmeCode = readmeLines.filter { !$0.hasPrefix("import ") && !$0.hasPrefix("struct CartChanged") }
        #expect(readmeCode.drop { $0.isEmpty }.map(String.init) == testLines.map(String.init))
        #expect(readme.contains("struct CartChanged: Mail { var items: Int }"))
    }
}
