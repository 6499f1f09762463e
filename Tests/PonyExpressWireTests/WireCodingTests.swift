import Glibc
import PonyExpress
import PonyExpressMonitor
import PonyExpressWire
import PonyTestSupport
import Testing

@Suite("the wire format")
struct WireCodingTests {
    @Test("a snapshot with every field filled crosses the wire whole")
    func roundTrip() throws {
        let snapshot = SnapshotFixture.make()
        let original = SnapshotMirror.render(snapshot)
        #expect(SnapshotMirror.unpopulated(original) == [], "fill these fields in SnapshotFixture")
        let frame = try SnapshotFrame(takenAt: 1_700_000_000.25, snapshot: snapshot).frame
        let decoded = try SnapshotFrame.read(frame)
        #expect(decoded.takenAt == 1_700_000_000.25)
        let copy = SnapshotMirror.render(decoded.snapshot)
        for (left, right) in zip(original, copy) where left != right {
            Issue.record("sent \(left), received \(right)")
        }
        #expect(original.count == copy.count)
        // Types of the other process are known by name only, and equal by name.
        #expect(decoded.snapshot.mailTypes[0].mailType.isNameOnly)
        #expect(decoded.snapshot.mailTypes[0].mailType == decoded.snapshot.findings[0].mailType)
    }

    @Test("only the requested mail types' recipients are kept")
    func keepRecipients() {
        var snapshot = SnapshotFixture.make()
        let cart = TypeIdentity(SnapshotFixture.CartUpdated.self)
        let login = TypeIdentity(SnapshotFixture.LoginEvent.self)
        #expect(!snapshot.recipients(of: login).isEmpty)
        snapshot.keepRecipients(of: [cart])
        #expect(snapshot.recipients(of: cart).count == 1)
        #expect(snapshot.recipients(of: login).isEmpty)
    }

    @Test("a field the reader does not know is skipped, a missing optional one is nil")
    func versionTolerance() throws {
        struct Newer: Codable { var name: String, added: [Double], nested: Hello? }
        struct Older: Codable { var name: String, nested: Hello?, absent: Int? }
        let bytes = try WireEncoder.encode(
            Newer(name: "x", added: [1, 2], nested: Hello(pid: 1, processName: "app", startedAt: 2)))
        let older = try WireDecoder.decode(Older.self, from: bytes)
        #expect(older.name == "x")
        #expect(older.nested?.processName == "app")
        #expect(older.absent == nil)
    }

    @Test("a hello of another major version is refused by name, another minor version is read")
    func helloVersions() throws {
        let hello = Hello(pid: 42, processName: "app", startedAt: 1)
        let newerMinor = try Hello.read(try hello.frame(major: WireVersion.major, minor: WireVersion.minor + 3))
        #expect(newerMinor.hello == hello)
        #expect(newerMinor.minor == WireVersion.minor + 3)
        #expect(throws: WireError.unsupportedVersion(major: 99, minor: 0)) {
            try Hello.read(try hello.frame(major: 99, minor: 0))
        }
        #expect(WireError.unsupportedVersion(major: 99, minor: 0).description.contains("99.0 is not supported"))
    }

    @Test("1.3's quiet bound and keep-alive: read back as sent; an agent of 1.2 says no bound, so none is sent to it")
    func keepAliveVersions() throws {
        let hello = Hello(pid: 42, processName: "app", startedAt: 1, quietViewerBound: 10)
        #expect(try Hello.read(try hello.frame()).hello.quietViewerBound == 10)
        #expect(try WireDecoder.decode(Request.self, from: try Request.keepAlive.frame.payload) == .keepAlive)
        // An agent of 1.2 sent the hello without the field.
        struct HelloOf12: Codable { var pid: Int32, processName: String, libraryVersion: String, startedAt: Double }
        let older = try WireEncoder.encode(HelloOf12(pid: 42, processName: "app", libraryVersion: "0.9", startedAt: 1))
        let read = try Hello.read(Frame(kind: .hello, payload: [0, 1, 0, 2] + older))
        #expect(read.minor == 2)
        #expect(read.hello.quietViewerBound == nil)
    }

    @Test("1.6's judge request reads back as sent, kinds and parameters by name")
    func judgeRequest() throws {
        var overrides = RuleOverrides()
        overrides.disable([.growingRegistrations, .outlivedScope])
        overrides.enable([.highPruneRate])
        try overrides.set("oversubscribed.threshold", to: 50)
        #expect(overrides.disabled == ["growingRegistrations", "outlivedScope"])
        let request = Request.judge(overrides)
        #expect(try WireDecoder.decode(Request.self, from: try request.frame.payload) == request)
        #expect(WireVersion.minor >= 6)
    }

    @Test("1.9's hello names the app's rules: read back as sent, skipped by 1.8's viewers, absent from 1.8's agents")
    func helloAppRules() throws {
        var settings = MonitorSettings()
        settings.disabledRules = [.highPruneRate]
        try settings.setParameter(named: "oversubscribed.threshold", to: 40)
        let hello = Hello(pid: 42, processName: "app", startedAt: 1, appRules: settings.ruleChanges)
        let read = try Hello.read(try hello.frame())
        #expect(read.hello.appRules?.disabled == ["highPruneRate"])
        #expect(read.hello.appRules?.parameters == ["oversubscribed.threshold": 40])
        // A viewer of 1.8 reads the hello it knows.
        struct HelloOf18: Codable {
            var pid: Int32, processName: String, libraryVersion: String, startedAt: Double, quietViewerBound: Double?
        }
        let payload = try hello.frame().payload
        #expect(try WireDecoder.decode(HelloOf18.self, from: Array(payload[4...])).processName == "app")
        // An agent of 1.8 sent none: the viewer judges with its own rules over the defaults.
        let older = try WireEncoder.encode(
            HelloOf18(pid: 42, processName: "app", libraryVersion: "0.9", startedAt: 1, quietViewerBound: 10))
        #expect(try Hello.read(Frame(kind: .hello, payload: [0, 1, 0, 8] + older)).hello.appRules == nil)
        // The default settings change nothing.
        #expect(MonitorSettings().ruleChanges.isEmpty)
    }

    @Test("a length over the cap is refused at the header, before any body is read")
    func frameCap() {
        #expect(throws: WireError.frameTooLarge(Frame.maximumLength + 1)) {
            try Frame.bodyLength(
                Frame(kind: .snapshot, payload: Array(repeating: 0, count: 0)).bytes.prefix(0)
                    + [0x01, 0x00, 0x00, 0x01])
        }
        #expect(throws: WireError.malformed("an empty frame")) { try Frame.bodyLength([0, 0, 0, 0]) }
        #expect((try? Frame.bodyLength([0x01, 0x00, 0x00, 0x00])) == Frame.maximumLength)
    }

    @Test("malformed bytes throw one-line errors")
    func malformed() throws {
        let good = try SnapshotFrame(takenAt: 1, snapshot: SnapshotFixture.make()).frame.payload
        for cut in stride(from: 0, to: good.count, by: max(1, good.count / 200)) {
            do {
                _ = try WireDecoder.decode(SnapshotFrame.self, from: Array(good[..<cut]))
                Issue.record("a snapshot cut at \(cut) of \(good.count) bytes decoded")
            } catch let error as WireError {
                #expect(!error.description.contains("\n"))
            }
        }
        var flipped = good
        for index in stride(from: 0, to: flipped.count, by: 7) { flipped[index] ^= 0x5a }
        #expect(throws: WireError.self) { try WireDecoder.decode(SnapshotFrame.self, from: flipped) }
        #expect(throws: WireError.self) { try Frame(body: [0x7f]) }
    }

    @Test("a recording cut mid-frame reads up to its last whole frame and says where it was cut")
    func truncatedRecording() throws {
        let hello = try Hello(pid: 1, processName: "app", startedAt: 0).frame()
        var bytes = Recording.magic + Recording.checksummed(hello.bytes)
        for index in 0..<3 {
            bytes += Recording.checksummed(
                try SnapshotFrame(takenAt: Double(index), snapshot: SnapshotFixture.make()).frame.bytes)
        }
        let whole = try Recording(bytes: bytes)
        #expect(whole.frameCount == 3)
        #expect(whole.damage == nil)
        #expect(whole.firstProblem() == nil)
        let cut = try Recording(bytes: Array(bytes.dropLast(10)))
        #expect(cut.frameCount == 2)
        let size = Recording.grouped(bytes.count - 10)
        #expect(cut.damage == .damagedRecording("cut short after frame 3 of a file of \(size) bytes"))
        #expect(cut.firstProblem() == cut.damage)
        #expect(try cut.snapshot(at: 1).takenAt == 1)
        #expect(throws: WireError.self) { try Recording(bytes: Array("not a recording".utf8)) }
    }

    @Test("a damaged length mid-file is named with its byte; a damaged payload names its frame")
    func damagedRecording() throws {
        let hello = try Hello(pid: 1, processName: "app", startedAt: 0).frame()
        var bytes = Recording.magic + Recording.checksummed(hello.bytes)
        var starts: [Int] = []
        for index in 0..<3 {
            starts.append(bytes.count)
            bytes += Recording.checksummed(
                try SnapshotFrame(takenAt: Double(index), snapshot: SnapshotFixture.make()).frame.bytes)
        }
        var badLength = bytes
        badLength[starts[1]] = 0x7F
        let lengthDamaged = try Recording(bytes: badLength)
        #expect(lengthDamaged.frameCount == 1)
        let description = try #require(lengthDamaged.damage?.description)
        #expect(description.hasPrefix("damaged recording: damaged length at byte \(Recording.grouped(starts[1]))"))

        var badPayload = bytes
        badPayload[starts[2] + 6] ^= 0xFF
        badPayload[starts[2] + 9] ^= 0xFF
        let payloadDamaged = try Recording(bytes: badPayload)
        #expect(payloadDamaged.damage == nil)
        let problem = try #require(payloadDamaged.firstProblem()?.description)
        #expect(problem.hasPrefix("damaged recording: damaged frame 4 at byte \(Recording.grouped(starts[2]))"))
        #expect(!problem.contains("\n"))
        // A flipped byte inside a string decodes into a plausible snapshot: only the checksum finds it.
        var badName = bytes
        badName[bytes.count - 5 - 2] ^= 0x01
        let nameDamaged = try Recording(bytes: badName)
        #expect(nameDamaged.firstProblem()?.description.hasSuffix("its checksum does not match its bytes") == true)
    }

    @Test("a recording from before checksums (PONYREC) is still read, frame by frame")
    func uncheckedRecording() throws {
        let hello = try Hello(pid: 1, processName: "app", startedAt: 0).frame()
        let frame = try SnapshotFrame(takenAt: 4, snapshot: SnapshotFixture.make()).frame
        let recording = try Recording(bytes: Recording.uncheckedMagic + hello.bytes + frame.bytes)
        #expect(recording.frameCount == 1)
        #expect(recording.firstProblem() == nil)
        #expect(try recording.snapshot(at: 0).takenAt == 4)
    }

    @Test("only a regular file is read as a recording: a FIFO is refused at once, not waited on")
    func onlyRegularFiles() throws {
        let directory = temporaryRuntimeDirectory()
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(
            throws: WireError.refused(
                "'\(fifo)' is a FIFO, not a regular file; a recording is a file made with --record")
        ) {
            try Recording(path: fifo)
        }
        #expect(throws: WireError.self) { try Recording(path: "/dev/zero") }
    }
}
