import PonyExpress
import PonyExpressMonitor
import PonyJSON
import PonyTopReport
import PonyTopUI
import Testing

/// Names from an app or a recording reach the terminal escaped: a mail type or app name cannot set the title,
/// clear the screen or forge a line.
@Suite("Terminal-safe text")
struct TerminalTextTests {
    static let hostile = "Cart\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nfindings: 0\u{9B}\u{202E}\u{2028}\u{2029}"
    static let escaped =
        "Cart\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{D}\\u{A}findings: 0\\u{9B}\\u{202E}\\u{2028}\\u{2029}"

    @Test("control and C1 characters, line and paragraph separators, bidi overrides: written as Swift escapes")
    func escapes() {
        #expect(Self.hostile.terminalSafe == Self.escaped)
        #expect("Café ✓ CartUpdated<Int>".terminalSafe == "Café ✓ CartUpdated<Int>")
    }

    @Test("a file's errors escape exactly what the screen escapes: one rule in two modules that share no other")
    func documentErrorsAndTheScreenAgree() {
        // PonyJSON (scenario and config files) and the monitor's terminalSafe each keep the list; this holds them equal.
        let differing = (0...0x3000).compactMap(Unicode.Scalar.init).filter { scalar in
            (DocumentProblem.oneLine(String(scalar)) != String(scalar)) != scalar.steersTerminal
        }
        #expect(differing.isEmpty, "\(differing.map { String($0.value, radix: 16) })")
    }

    @Test("the text report escapes the app's name and shows no raw control character")
    func report() {
        let office = PostOffice()
        let monitor = PostOfficeMonitor()
        monitor.attach(to: office)
        defer { monitor.detach() }
        let report = Report(
            snapshot: monitor.snapshot(), source: Report.Source(kind: .replay, name: Self.hostile, pid: 7),
            durationSeconds: 1, rate: 1, seed: 1)
        let text = report.text()
        #expect(text.contains("recording of \(Self.escaped) (pid 7)"))
        let controls = text.unicodeScalars.filter {
            $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || (0x2028...0x2029).contains($0.value)
        }
        #expect(controls.isEmpty, "raw control characters: \(controls.map(\.value))")
        #expect(!text.contains("\nfindings: 0\u{9B}"), "a forged line")
    }

    @Test("a grid (the TUI) shows a name's control characters escaped")
    func grid() {
        var grid = Grid(width: 100, height: 1)
        let columns = grid.write(Self.hostile, x: 0, y: 0)
        #expect(columns == Self.escaped.unicodeScalars.count)
        #expect(grid.text.hasPrefix(Self.escaped))
    }
}
