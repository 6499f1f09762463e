import Foundation
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Testing

/// `ponytop --replay --rule-setting` (issue 37): a recording keeps the rule facts its snapshots were judged from, and
/// a replay judges them again with its own thresholds, the same way every time.
@Suite(
    "a recording judged again", .blocksItsThread,
    .enabled(if: PonyTopBinary.exists, "ponytop was not built"))
struct ReplayJudgingTests {
    private static func ponytop(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run([PonyTopBinary.path] + arguments, timeout: 120)
    }

    /// The findings of a JSON report, as kind and explanation.
    private static func findings(_ result: ChildProcess.Result) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]], "\(result.output)")
        return findings.map { "\($0["kind"] ?? "?"): \($0["explanation"] ?? "?")" }
    }

    @Test("other thresholds find other findings; the same ones, the same findings; the leak rule's are refused")
    func judgedAgain() throws {
        let file = ChildProcess.temporaryFile("ponyrec")
        defer { unlink(file) }
        // 150 recipients of Reachability, and cart screens registered again and again.
        let recorded = try Self.ponytop([
            "--scenario", "oversubscribed", "--duration", "1.5", "--refresh", "0.25", "--report", "json", "--record",
            file,
        ])
        #expect(recorded.status == 0, "\(recorded.error)")
        let asRecorded = try Self.findings(try Self.ponytop(["--replay", file, "--report", "json"]))
        #expect(asRecorded == (try Self.findings(recorded)), "the defaults judge as the run did")
        #expect(asRecorded.contains { $0.hasPrefix("oversubscribed: Reachability has 150 live recipients") })

        let lenient = try Self.ponytop([
            "--replay", file, "--report", "json", "--rule-setting", "oversubscribed.threshold=200",
        ])
        #expect(lenient.status == 0, "\(lenient.error)")
        #expect(try Self.findings(lenient).allSatisfy { !$0.hasPrefix("oversubscribed:") }, "\(lenient.output)")

        let strict = ["--replay", file, "--report", "json", "--rule-setting", "oversubscribed.threshold=120"]
        let once = try Self.findings(try Self.ponytop(strict))
        #expect(once.contains { $0.hasSuffix("more than the threshold of 120") }, "\(once)")
        #expect(try Self.findings(try Self.ponytop(strict)) == once, "judged twice, the same findings")

        let leak = try Self.ponytop([
            "--replay", file, "--report", "text", "--rule-setting", "growingRegistrations.window=20",
        ])
        #expect(leak.status == 2)
        #expect(
            leak.error
                == "ponytop: --replay: --rule-setting growingRegistrations.window: growingRegistrations is judged in "
                + "the app, from its live registrations, so a recording replays its findings as recorded (every other "
                + "rule is judged again); drop it\n")
        let bound = try Self.ponytop(["--replay", file, "--report", "text", "--rule-setting", "stalledQueue.wait=0.5"])
        #expect(bound.status == 2)
        #expect(
            bound.error
                == "ponytop: --replay: stalledQueue.wait = 0.5 cannot judge '\(file)': expected the app's own 0.25 s: "
                + "it counted a queued delivery as stalled at that wait as it recorded\n")
    }

    /// `snapshot` with its rule facts' stall bound set to `wait`, as an app with another bound would have gathered
    /// them (through the schema's JSON form: the facts' fields are the monitor's own).
    private static func snapshot(_ snapshot: MonitorSnapshot, stallWait wait: Double) throws -> MonitorSnapshot {
        let data = try JSONEncoder().encode(snapshot)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var facts = try #require(object["ruleFacts"] as? [String: Any], "a recording's snapshots carry facts")
        facts["stallWait"] = wait
        object["ruleFacts"] = facts
        return try JSONDecoder().decode(MonitorSnapshot.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test("snapshots whose facts another stall bound gathered keep their recorded findings, and the replay says so")
    func factsThatDoNotFit() throws {
        let file = ChildProcess.temporaryFile("ponyrec")
        let crafted = ChildProcess.temporaryFile("ponyrec")
        defer {
            unlink(file)
            unlink(crafted)
        }
        let recorded = try Self.ponytop([
            "--scenario", "oversubscribed", "--duration", "1.5", "--refresh", "0.25", "--report", "json", "--record",
            file,
        ])
        #expect(recorded.status == 0, "\(recorded.error)")
        // The second half as if an app with a 0.5 s stall bound had recorded it (an app restarted with other settings,
        // or a crafted file).
        let recording = try Recording(path: file)
        let half = recording.frameCount / 2
        try #require(half >= 1, "frames: \(recording.frameCount)")
        let writer = try RecordingWriter(path: crafted, hello: recording.hello, overwrite: true)
        for index in 0..<recording.frameCount {
            var frame = try recording.snapshot(at: index)
            if index >= half { frame.snapshot = try Self.snapshot(frame.snapshot, stallWait: 0.5) }
            try writer.append(frame)
        }

        let replay = try Self.ponytop([
            "--replay", crafted, "--report", "json", "--rule-setting", "oversubscribed.threshold=200",
        ])
        #expect(replay.status == 0, "\(replay.error)")
        let name = crafted.split(separator: "/").last.map(String.init) ?? crafted
        #expect(
            replay.error
                == "ponytop: note: snapshot \(half + 1) of '\(name)' cannot be judged with the replay's rules "
                + "(stalledQueue.wait = 0.25, expected the app's own 0.5 s: it counted a queued delivery as stalled at "
                + "that wait as it recorded): its findings, and those of any such snapshot, are shown as recorded\n")
        // Judged again, the first half has no over-subscription at 200; the second keeps the recorded 150 over 100.
        let findings = try Self.findings(replay)
        #expect(findings.contains { $0.hasSuffix("more than the threshold of 100") }, "\(findings)")
    }
}
