import Foundation
import PonyExpress
import PonyExpressFoundation
import PonyTestSupport
import Testing

/// The bridge example of the module's documentation page (which the README links) compiles and runs, and is on the
/// page as written here.
@Suite("the documented bridge example")
struct ReadmeBridgeTests {
    @Test func theExampleCodeRuns() throws {
        defaultCenterInUse.lock()
        defer { defaultCenterInUse.unlock() }
        let keys = Tally<String>()
        let id = PostOffice.default.register { (mail: SettingsChanged) in keys.add(mail.key) }
        defer { PostOffice.default.unregister(id) }
        let legacy = Tally<String>()
        let observer = NotificationCenter.default.addObserver(
            forName: Notification.Name("SettingsChanged"), object: nil, queue: nil
        ) { legacy.add($0.userInfo?["key"] as? String ?? "?") }
        defer { NotificationCenter.default.removeObserver(observer) }

        // README begin
        let bridge = NotificationBridge(center: .default, office: .default)  // keep it; releasing it stops it
        bridge.bridge(Notification.Name("SettingsChanged")) { notification in  // old notifications in, as mail
            (notification.userInfo?["key"] as? String).map(SettingsChanged.init)
        }
        bridge.bridge(SettingsChanged.self) { mail, sender in  // new mail out, for observers not moved yet
            Notification(name: Notification.Name("SettingsChanged"), object: sender, userInfo: ["key": mail.key])
        }
        // README end
        NotificationCenter.default.post(name: Notification.Name("SettingsChanged"), object: nil, userInfo: ["key": "a"])
        PostOffice.default.post(SettingsChanged(key: "b"))
        bridge.removeAll()
        #expect(keys.all == ["a", "b"])
        #expect(legacy.all == ["a", "b"])

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(
            contentsOf: root.appendingPathComponent(
                "Sources/PonyExpressFoundation/PonyExpressFoundation.docc/PonyExpressFoundation.md"),
            encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let begin = try #require(source.range(of: "// README begin\n"))
        let end = try #require(source.range(of: "        // README end"))
        let code = source[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.dropFirst(8) }.joined(separator: "\n")
        let example = "```swift\nimport Foundation\nimport PonyExpress\nimport PonyExpressFoundation\n\n" + code + "```"
        #expect(page.contains(example), "the module page lacks:\n\(example)")
    }
}
