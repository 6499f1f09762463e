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

    @Test("other thresholds find other findings, the same ones the same findings; another stall bound is refused")
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

        let bound = try Self.ponytop(["--replay", file, "--report", "text", "--rule-setting", "stalledQueue.wait=0.5"])
        #expect(bound.status == 2)
        #expect(
            bound.error
                == "ponytop: --replay: stalledQueue.wait = 0.5 cannot judge '\(file)': expected the app's own 0.25 s: "
                + "it counted a queued delivery as stalled at that wait as it recorded\n")
    }

    @Test("a recording of protocol 1.7, without the leak rule's facts, keeps its leaks and refuses their settings")
    func olderFactsKeepTheirLeaks() throws {
        let file = ChildProcess.temporaryFile("ponyrec")
        let older = ChildProcess.temporaryFile("ponyrec")
        defer {
            unlink(file)
            unlink(older)
        }
        let recorded = try Self.ponytop([
            "--scenario", "leaky", "--duration", "7", "--refresh", "0.5", "--report", "json", "--record", file,
        ])
        #expect(recorded.status == 0, "\(recorded.error)")
        let recording = try Recording(path: file)
        let writer = try RecordingWriter(path: older, hello: recording.hello, overwrite: true)
        var leaks: Set<String> = []
        for index in 0..<recording.frameCount {
            var frame = try recording.snapshot(at: index)
            frame.snapshot = try Self.snapshot(frame.snapshot, withoutLeaks: true)
            leaks.formUnion(frame.snapshot.findings(of: .growingRegistrations).map(\.explanation))
            try writer.append(frame)
        }
        #expect(!leaks.isEmpty, "the run found its leaks")
        // Judged again without their facts, the leaks are the recorded ones, even with the other rules turned up.
        let replay = try Self.ponytop([
            "--replay", older, "--report", "json", "--rule-setting", "oversubscribed.threshold=1000",
        ])
        #expect(replay.status == 0, "\(replay.error)")
        let replayed = try Self.findings(replay).filter { $0.hasPrefix("growingRegistrations:") }
        #expect(!replayed.isEmpty && replayed.allSatisfy { leaks.contains(String($0.dropFirst(22))) }, "\(replayed)")
        let refused = try Self.ponytop([
            "--replay", older, "--report", "text", "--rule-setting", "growingRegistrations.minimumGrowth=20",
        ])
        #expect(refused.status == 2)
        #expect(
            refused.error
                == "ponytop: --replay: --rule-setting growingRegistrations.minimumGrowth: '\(older)' holds no facts of "
                + "growingRegistrations (it was recorded before wire protocol 1.8), so it replays its findings as "
                + "recorded (every other rule is judged again); drop it\n")
    }

    @Test("a recording's leaks are judged again: a higher minimum growth finds none, the same settings the same ones")
    func leaksJudgedAgain() throws {
        let file = ChildProcess.temporaryFile("ponyrec")
        defer { unlink(file) }
        // Cart blocks and session objects kept alive, four a second each.
        let recorded = try Self.ponytop([
            "--scenario", "leaky", "--duration", "7", "--refresh", "0.5", "--report", "json", "--record", file,
        ])
        #expect(recorded.status == 0, "\(recorded.error)")
        let leaks = try Self.findings(recorded).filter { $0.hasPrefix("growingRegistrations:") }
        #expect(leaks.count == 2, "\(leaks)")
        let asRecorded = try Self.findings(try Self.ponytop(["--replay", file, "--report", "json"]))
        #expect(asRecorded == (try Self.findings(recorded)), "the defaults judge the leaks as the run did")

        let higher = ["--replay", file, "--report", "json", "--rule-setting", "growingRegistrations.minimumGrowth=500"]
        let once = try Self.findings(try Self.ponytop(higher))
        #expect(once.allSatisfy { !$0.hasPrefix("growingRegistrations:") }, "\(once)")
        #expect(try Self.findings(try Self.ponytop(higher)) == once, "judged twice, the same findings")

        let longer = try Self.ponytop([
            "--replay", file, "--report", "text", "--rule-setting", "growingRegistrations.window=600",
        ])
        #expect(longer.status == 2)
        #expect(
            longer.error
                == "ponytop: --replay: growingRegistrations.window = 600 cannot judge '\(file)': expected at most 60 s, "
                + "the history the app's monitor kept (its historyLength)\n")
    }

    /// `snapshot` with its rule facts' stall bound set to `wait`, as an app with another bound would have gathered
    /// them, or without the leak rule's facts, as an agent of protocol 1.7 sent them (through the schema's JSON form:
    /// the facts' fields are the monitor's own).
    private static func snapshot(
        _ snapshot: MonitorSnapshot, stallWait wait: Double? = nil, withoutLeaks: Bool = false
    ) throws -> MonitorSnapshot {
        let data = try JSONEncoder().encode(snapshot)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var facts = try #require(object["ruleFacts"] as? [String: Any], "a recording's snapshots carry facts")
        if let wait { facts["stallWait"] = wait }
        if withoutLeaks { facts["leaks"] = nil }
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
