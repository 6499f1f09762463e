import Foundation
import PonyScenarios
import Testing

/// Bad scenario text: each problem is one `ScenarioError` whose one-line description names the file, the line and
/// column, what was expected and what was found, and the valid names where there is a list.
@Suite struct ScenarioParsingTests {
    /// A small valid scenario; `replacing` swaps one piece of it for a broken one.
    static let valid = """
        {
            "name": "test",
            "summary": "A test scenario",
            "recipients": [
                { "kind": "CartViewModel", "mail": "CartUpdated", "queue": "ui" }
            ],
            "phases": [
                { "name": "only", "duration": 5, "rate": 100, "mail": { "CartUpdated": 1 } }
            ]
        }
        """

    func parse(_ text: String) throws(ScenarioError) -> Scenario {
        try Scenario.parse(Array(text.utf8), fileName: "test.json")
    }

    func failure(_ text: String) -> ScenarioError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    func failure(replacing old: String, with new: String) throws -> ScenarioError? {
        #expect(Self.valid.contains(old), "the template has no \(old)")
        return failure(Self.valid.replacingOccurrences(of: old, with: new))
    }

    /// Checks the parts every error must have.
    func expectWellFormed(_ error: ScenarioError?, line: Int?, column: Int? = nil, mentions: [String] = []) {
        guard let error else {
            Issue.record("no error")
            return
        }
        let text = error.description
        #expect(!text.contains("\n"), "\(text)")
        #expect(text.hasPrefix("test.json"), "\(text)")
        if let line { #expect(error.line == line, "\(text)") }
        if let column { #expect(error.column == column, "\(text)") }
        #expect(text.contains("expected"), "\(text)")
        for word in mentions { #expect(text.contains(word), "\(text) lacks \(word)") }
    }

    @Test func theTemplateParses() throws {
        let scenario = try parse(Self.valid)
        #expect(scenario.name == "test")
        #expect(scenario.phases.count == 1)
        #expect(scenario.phases[0].rate == .steady(100))
        #expect(scenario.recipients[0].kind == .cartViewModel)
        #expect(scenario.recipients[0].queue == .ui)
        #expect(scenario.ending == .repeat)
    }

    @Test func crlfByteOrderMarkAndTrailingBlankLinesAreAccepted() throws {
        let plain = try parse(Self.valid)
        let windows = "\u{FEFF}" + Self.valid.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n\r\n\n  \n"
        #expect(try parse(windows) == plain)
    }

    @Test func commentsAndTrailingCommasAreAccepted() throws {
        let handWritten = """
            // A test scenario, written by hand.
            {
                "name": "test",  # the name ponytop shows
                "summary": "A test scenario",
                "recipients": [
                    { "kind": "CartViewModel", "mail": "CartUpdated", "queue": "ui", },  // one view model
                ],
                # one phase is enough
                "phases": [
                    { "name": "only", "duration": 5, "rate": 100, "mail": { "CartUpdated": 1, }, },
                ],
            }
            # the end
            """
        #expect(try parse(handWritten) == parse(Self.valid))
        let inString = Self.valid.replacingOccurrences(of: "\"A test scenario\"", with: "\"a // b # c\"")
        #expect(try parse(inString).summary == "a // b # c", "comment markers inside strings are text")
    }

    @Test func aSingleSlashOrABlockCommentIsASyntaxError() {
        expectWellFormed(failure("/* no */ {}"), line: 1, column: 1, mentions: ["syntax error"])
        expectWellFormed(failure("{ \"name\": / }"), line: 1, column: 11, mentions: ["syntax error"])
    }

    @Test func summaryIsOptional() throws {
        let scenario = try parse(Self.valid.replacingOccurrences(of: "\"summary\": \"A test scenario\",", with: ""))
        #expect(scenario.summary == "")
        #expect(scenario.name == "test")
    }

    @Test func independentProblemsAreReportedTogetherInFileOrder() throws {
        let text = Self.valid
            .replacingOccurrences(of: "\"name\": \"test\"", with: "\"name\": 7")
            .replacingOccurrences(of: "\"queue\": \"ui\"", with: "\"queue\": \"main\", \"colour\": 1")
            .replacingOccurrences(of: "\"duration\": 5", with: "\"duration\": -5")
            .replacingOccurrences(of: "\"rate\": 100", with: "\"rate\": \"fast\"")
        let error = failure(text)
        expectWellFormed(error, line: 2, mentions: ["wrong type for \"name\"", "(and 4 more problems)"])
        let lines = error?.lines ?? []
        #expect(lines.count == 5, "\(lines)")
        let expected = ["wrong type for \"name\"", "unknown queue", "unknown field", "out of range", "unknown rate"]
        for (line, problem) in zip(lines, expected) {
            #expect(line.hasPrefix("test.json:") && line.contains(problem) && !line.contains("\n"), "\(line)")
        }
        #expect(error?.others.map(\.line) == [5, 5, 8, 8])
    }

    @Test func aBrokenPhaseDoesNotHideAMissingField() throws {
        let text = Self.valid
            .replacingOccurrences(of: "\"name\": \"test\",", with: "")
            .replacingOccurrences(of: "\"rate\": 100", with: "\"rate\": -1")
        let lines = failure(text)?.lines ?? []
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("missing field \"name\"") == true, "\(lines)")
        #expect(lines.last?.contains("\"rate\" out of range") == true, "\(lines)")
    }

    @Test func manyProblemsAreCappedAndCounted() {
        let phase = "{ \"duration\": -1, \"rate\": 1, \"mail\": \"CartUpdated\" }"
        let text =
            "{ \"name\": \"x\", \"phases\": [" + Array(repeating: phase, count: 30).joined(separator: ",") + "] }"
        let error = failure(text)
        #expect(error?.others.count == 19)
        #expect(error?.unreported == 10)
        #expect(error?.lines.last == "test.json: 10 more problems not shown")
        #expect(error?.description.hasSuffix("(and 29 more problems)") == true, "\(String(describing: error))")
    }

    @Test func emptyFile() {
        expectWellFormed(failure(""), line: 1, mentions: ["empty", "found nothing"])
        expectWellFormed(failure("\u{FEFF}\n\n  \n"), line: 4, mentions: ["empty"])
    }

    @Test func syntaxErrorPointsAtLineAndColumn() {
        let error = failure(Self.valid.replacingOccurrences(of: "\"duration\": 5,", with: "\"duration\" 5,"))
        expectWellFormed(error, line: 8, column: 38, mentions: ["syntax error", "':'", "found \"5,\""])
    }

    @Test func unterminatedAndTruncated() {
        expectWellFormed(failure("{ \"name\": \"abc"), line: 1, mentions: ["unterminated string"])
        expectWellFormed(failure("{ \"name\": "), line: 1, mentions: ["end of file"])
        expectWellFormed(failure("{ \"name\": \"x\",, }"), line: 1, mentions: ["syntax error"])
        expectWellFormed(failure("[,]"), line: 1, mentions: ["syntax error"])
        expectWellFormed(failure("{} {}"), line: 1, column: 4, mentions: ["after the scenario"])
        expectWellFormed(failure("[1, 2"), line: 1, mentions: ["end of file"])
        expectWellFormed(failure("{\"a\": tru}"), line: 1, column: 7, mentions: ["syntax error"])
        expectWellFormed(failure("{\"a\": 01}"), line: 1, mentions: ["bad number"])
        expectWellFormed(failure("{\"a\": 1e999}"), line: 1, mentions: ["out of range"])
        expectWellFormed(failure("{\"a\": \"\\q\"}"), line: 1, mentions: ["unknown escape"])
        expectWellFormed(failure("{\"a\": \"\\ud800\"}"), line: 1, mentions: ["surrogate"])
    }

    @Test func topLevelMustBeAnObject() {
        expectWellFormed(failure("[1]"), line: 1, column: 1, mentions: ["expected an object", "found an array"])
    }

    @Test func unknownMailTypeListsTheValidOnes() throws {
        let error = try failure(replacing: "{ \"CartUpdated\": 1 }", with: "{ \"CartUpdatd\": 1 }")
        expectWellFormed(
            error, line: 8, column: 65,
            mentions: ["unknown mail type", "found \"CartUpdatd\"", "valid: LoginEvent", "RequestFailed"])
        #expect(error?.valid == ScenarioMailType.allCases.map(\.rawValue))
    }

    @Test("a name that breaks lines or steers the terminal is written escaped: the error stays one line")
    func unsafeCharactersInANameAreEscaped() throws {
        // JSON escapes: the parser refuses raw control characters in a string before it reads the name.
        let name = #"Cart\u001b[2J\u2028Updated\u2029\u0085\u202e"#
        let error = try failure(replacing: "{ \"CartUpdated\": 1 }", with: "{ \"\(name)\": 1 }")
        expectWellFormed(error, line: 8, mentions: ["unknown mail type", #"Cart\u{1b}[2J\u{2028}Updated\u{2029}"#])
        let text = error?.description ?? ""
        #expect(
            !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value > 0x2000 })
    }

    @Test func unknownRecipientKindListsTheValidOnes() throws {
        let error = try failure(replacing: "\"kind\": \"CartViewModel\"", with: "\"kind\": \"Cart\"")
        expectWellFormed(
            error, line: 5, column: 19,
            mentions: ["unknown recipient kind", "found \"Cart\"", "CartViewModel", "block"])
    }

    @Test func unknownQueueListsTheValidOnes() throws {
        let error = try failure(replacing: "\"queue\": \"ui\"", with: "\"queue\": \"main\"")
        expectWellFormed(
            error, line: 5, mentions: ["unknown queue", "found \"main\"", "valid: none, ui, storage, network, workers"])
    }

    @Test func unknownFieldListsTheFieldsOfItsObject() throws {
        let error = try failure(replacing: "\"duration\": 5", with: "\"duraton\": 5")
        expectWellFormed(error, line: 8, column: 9, mentions: ["missing field \"duration\" in phase"])
        let unknown = error?.others.first
        expectWellFormed(
            unknown, line: 8, column: 27, mentions: ["unknown field in phase", "found \"duraton\"", "duration"])
    }

    @Test func missingFieldSaysWhichOne() throws {
        let error = try failure(replacing: "\"duration\": 5, ", with: "")
        expectWellFormed(error, line: 8, column: 9, mentions: ["missing field \"duration\"", "found only"])
    }

    @Test(arguments: [
        ("\"rate\": 100", "\"rate\": -5", "out of range"),
        ("\"rate\": 100", "\"rate\": 1e12", "out of range"),
        ("\"rate\": 100", "\"rate\": \"fast\"", "unknown rate"),
        ("\"rate\": 100", "\"rate\": { \"from\": 1, \"to\": -1 }", "out of range"),
        ("\"duration\": 5", "\"duration\": -1", "out of range"),
        ("\"duration\": 5", "\"duration\": 0", "out of range"),
        ("\"duration\": 5", "\"duration\": 1e9", "out of range"),
    ])
    func negativeOrAbsurdRatesAndDurations(old: String, new: String, problem: String) throws {
        expectWellFormed(try failure(replacing: old, with: new), line: 8, mentions: [problem, "found"])
    }

    @Test func emptyPhaseList() {
        let text = Self.valid.replacingOccurrences(
            of: "{ \"name\": \"only\", \"duration\": 5, \"rate\": 100, \"mail\": { \"CartUpdated\": 1 } }", with: "")
        expectWellFormed(failure(text), line: 7, column: 15, mentions: ["empty phase list", "at least one phase"])
    }

    @Test(arguments: [
        ("\"duration\": 5", "\"duration\": \"5\"", "found \"5\""),
        ("\"rate\": 100", "\"rate\": true", "found true"),
        ("\"queue\": \"ui\"", "\"queue\": 3", "found 3"),
        ("\"name\": \"test\"", "\"name\": null", "found null"),
        ("\"queue\": \"ui\"", "\"count\": [3]", "found an array"),
        ("\"queue\": \"ui\"", "\"lifetime\": {}", "found an object"),
        ("\"mail\": \"CartUpdated\"", "\"mail\": 12", "found 12"),
    ])
    func wrongFieldType(old: String, new: String, found: String) throws {
        let error = try failure(replacing: old, with: new)
        expectWellFormed(error, line: nil, mentions: ["wrong type", found])
    }

    @Test func invalidUTF8() {
        var bytes = Array(Self.valid.utf8)
        let index = bytes.firstIndex(of: UInt8(ascii: "A"))!
        bytes[index] = 0xFF
        #expect(throws: ScenarioError.self) { try Scenario.parse(bytes, fileName: "test.json") }
        do {
            _ = try Scenario.parse(bytes, fileName: "test.json")
        } catch {
            expectWellFormed(error, line: 3, column: 17, mentions: ["not valid UTF-8", "byte 0xFF"])
        }
        let truncated = Array("{\"name\": \"caf".utf8) + [0xC3]
        do {
            _ = try Scenario.parse(truncated, fileName: "test.json")
            Issue.record("no error")
        } catch {
            expectWellFormed(error, line: 1, mentions: ["not valid UTF-8"])
        }
    }

    @Test func nulByte() {
        var bytes = Array(Self.valid.utf8)
        let phases = Self.valid.range(of: "\"phases\"")!.lowerBound.utf16Offset(in: Self.valid)
        bytes.insert(0, at: phases)
        do {
            _ = try Scenario.parse(bytes, fileName: "test.json")
            Issue.record("no error")
        } catch {
            expectWellFormed(error, line: 7, column: 5, mentions: ["NUL byte", "found byte 0x00"])
        }
    }

    @Test func tenMebibyteFile() {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: 10 << 20)
        do {
            _ = try Scenario.parse(bytes, fileName: "test.json")
            Issue.record("no error")
        } catch {
            expectWellFormed(
                error, line: nil, mentions: ["file too large", "at most 1048576 bytes", "found 10485760 bytes"])
        }
    }

    @Test func longLine() {
        let text = Self.valid.replacingOccurrences(
            of: "A test scenario", with: String(repeating: "x", count: 64 << 10))
        expectWellFormed(
            failure(text), line: 3, column: 4_097,
            mentions: ["line too long", "at most 4096 bytes", "found \(64 << 10 + 18) bytes"])
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let text = String(repeating: "[\n", count: 100_000)
        expectWellFormed(failure(text), line: 33, column: 1, mentions: ["nested too deeply", "at most 32 levels"])
    }

    @Test func blocksCannotBeReleasedOrReregistered() throws {
        let error = try failure(
            replacing: "\"kind\": \"CartViewModel\"", with: "\"kind\": \"block\", \"lifetime\": 1, \"end\": \"release\""
        )
        expectWellFormed(error, line: 5, mentions: ["a block cannot end with \"release\"", "valid: unregister, leak"])
    }

    @Test("a group's scope and leakEvery are read; leakEvery needs a lifetime, and bad values are refused by name")
    func scopesAndLeaks() throws {
        let scenario = try parse(
            Self.valid.replacingOccurrences(
                of: "\"queue\": \"ui\"",
                with: "\"queue\": \"ui\", \"lifetime\": 1, \"scope\": \"GET /cart\", \"leakEvery\": 20"))
        #expect(scenario.recipients[0].scope == "GET /cart")
        #expect(scenario.recipients[0].leakEvery == 20)
        #expect(try parse(Self.valid).recipients[0].scope == nil)
        expectWellFormed(
            try failure(replacing: "\"queue\": \"ui\"", with: "\"leakEvery\": 20"), line: 5,
            mentions: ["\"leakEvery\" without a \"lifetime\""])
        expectWellFormed(
            try failure(replacing: "\"queue\": \"ui\"", with: "\"lifetime\": 1, \"leakEvery\": 1"), line: 5,
            mentions: ["\"leakEvery\"", "2"])
        expectWellFormed(
            try failure(replacing: "\"queue\": \"ui\"", with: "\"scope\": \"\""), line: 5,
            mentions: ["bad \"scope\"", "1 to 100 characters on one line"])
    }

    @Test func senderFiltersHaveFourShapes() throws {
        for (text, filter) in [
            ("any", ScenarioSenderFilter.any), ("CartService", .required(.cartService)),
            ("CartService?", .optional(.cartService)), ("exactly CartService", .exact(.cartService)),
        ] {
            let scenario = try parse(
                Self.valid.replacingOccurrences(of: "\"queue\": \"ui\"", with: "\"sender\": \"\(text)\""))
            #expect(scenario.recipients[0].sender == filter)
            #expect(filter.description == text)
        }
        let error = try failure(replacing: "\"queue\": \"ui\"", with: "\"sender\": \"exactly Nobody\"")
        expectWellFormed(error, line: 5, mentions: ["unknown sender filter", "CartService", "exactly NAME"])
    }

    @Test func mixesTakeThreeShapesAndSenders() throws {
        let scenario = try parse(
            Self.valid.replacingOccurrences(
                of: "{ \"CartUpdated\": 1 }",
                with: "{ \"CartUpdated\": 3, \"LoginEvent\": { \"weight\": 2, \"sender\": \"none\" } }"))
        #expect(
            scenario.phases[0].mail == [
                ScenarioMailChoice(.cartUpdated, weight: 3, sender: .cartService),
                ScenarioMailChoice(.loginEvent, weight: 2, sender: nil),
            ])
        let list = try parse(
            Self.valid.replacingOccurrences(of: "{ \"CartUpdated\": 1 }", with: "[\"CartUpdated\", \"Reachability\"]"))
        #expect(list.phases[0].mail.map(\.mail) == [.cartUpdated, .reachability])
    }

    @Test func errorsFromStrangeTextStayOnOneLine() throws {
        let error = try failure(replacing: "\"kind\": \"CartViewModel\"", with: "\"kind\": \"a\\nb\\u0007\"")
        #expect(error?.description.contains("\n") == false)
        #expect(error?.description.contains("\\u{a}") == true)
    }

    /// The parser is a pure function of bytes: mutated and random inputs give a scenario or an error, never a trap.
    @Test func mutatedInputNeverTraps() {
        var state: UInt64 = 0x1234_5678
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("{}[]:,\"\\ -0123456789.eE+truefalsnl\n\r\tAZ".utf8) + [0, 0xC3, 0xFF, 0xE2, 0x80]
        var parsed = 0
        var failed = 0
        for round in 0..<3_000 {
            var bytes = Array(Self.valid.utf8)
            if round % 7 == 0 { bytes = Array(bytes.prefix(Int(next() % 300))) }
            for _ in 0..<(1 + next() % 4) where !bytes.isEmpty {
                let index = Int(next() % UInt64(bytes.count))
                switch next() % 3 {
                case 0: bytes[index] = alphabet[Int(next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: index)
                }
            }
            do {
                _ = try Scenario.parse(bytes, fileName: "fuzz.json")
                parsed += 1
            } catch {
                #expect(!error.description.contains("\n"))
                #expect(error.description.hasPrefix("fuzz.json"), "\(error.description)")
                failed += 1
            }
        }
        // Both outcomes are reached, so the mutations test the parser's checks as well as its happy path.
        #expect(parsed > 0)
        #expect(failed > 0)
    }
}
