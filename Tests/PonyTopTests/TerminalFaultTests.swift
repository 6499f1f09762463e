import Foundation
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// ponytop in a real terminal (tmux) under the faults users meet: tiny terminals, a storm of resizes, and every
/// ending signal while the scenario posts at full speed. Each ends with the terminal restored.
@Suite(
    "ponytop under terminal faults", .blocksItsThread, .serialized,
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TerminalFaultTests {
    /// Whether the pane's shell got its terminal back: canonical input, echo, the main screen and the cursor.
    func expectRestored(_ tmux: TmuxSession, sourceLocation: SourceLocation = #_sourceLocation) {
        let stty = tmux.read("stty") ?? ""
        let flags = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        #expect(
            flags.isSuperset(of: ["icanon", "echo", "isig"]) && !flags.contains("-icanon") && !flags.contains("-echo"),
            "stty -a after exit: \(stty)", sourceLocation: sourceLocation)
        #expect(
            tmux.paneVariable("alternate_on") == "0", "the alternate screen was left", sourceLocation: sourceLocation)
        #expect(tmux.paneVariable("cursor_flag") == "1", "the cursor is shown", sourceLocation: sourceLocation)
    }

    @Test(
        "A 30x8 and a 10x3 terminal: no crash, a too-small notice where it fits, q quits cleanly",
        arguments: [(30, 8), (10, 3)] as [(Int, Int)])
    func tinyTerminal(width: Int, height: Int) throws {
        let tmux = try TmuxSession([PonyTopBinary.path], width: width, height: height)
        // The notice is centred and clipped to the width: its first ten columns at least are on screen.
        #expect(tmux.waitUntilScreen { $0.contains("terminal") || $0.contains("too small") })
        #expect(tmux.capture().split(separator: "\n").allSatisfy { $0.count <= width })
        tmux.resize(width: 120, height: 40)
        #expect(tmux.waitFor("Mail types ("))
        tmux.resize(width: width, height: height)
        #expect(tmux.waitUntilScreen { !$0.contains("Mail types (") })
        tmux.sendKeys("q")
        tmux.expectExit(0)
        expectRestored(tmux)
    }

    @Test("20 resizes in 2 seconds while posting at full speed: still drawing, then a clean quit")
    func resizeStorm() throws {
        let tmux = try TmuxSession([PonyTopBinary.path, "--scenario", "flood"])
        #expect(tmux.waitFor("Mail types ("))
        let sizes = [(80, 24), (200, 60), (30, 8), (120, 40), (81, 25), (10, 3), (160, 50), (79, 23), (100, 30)]
        let start = Date()
        for index in 0..<20 {
            let (width, height) = sizes[index % sizes.count]
            tmux.resize(width: width, height: height)
            // Spread the 20 over 2 seconds whatever tmux's own latency.
            let due = start.addingTimeInterval(Double(index + 1) * 0.1)
            while Date() < due { usleep(5_000) }
        }
        // The pane must be 120x40 before ponytop is asked to draw it: a tmux client that timed out on a loaded
        // machine leaves the last size it applied, which is not ponytop's fault. Once it is, ponytop has had the
        // SIGWINCH of that size, and a screen that never shows it is.
        let settled = waitUntil(timeout: 30, pollingEvery: 0.5) {
            tmux.resize(width: 120, height: 40)
            return tmux.paneVariable("pane_width") == "120" && tmux.paneVariable("pane_height") == "40"
        }
        #expect(settled, "the pane stayed \(tmux.paneVariable("pane_width"))x\(tmux.paneVariable("pane_height"))")
        let drawn = tmux.waitUntilScreen { $0.contains("Mail types (") && $0.contains("posts/s") }
        #expect(drawn, "no 120x40 screen after the storm; the pane shows:\n\(tmux.capture())")
        tmux.sendKeys("q")
        tmux.expectExit(0)
        expectRestored(tmux)
    }

    @Test(
        "SIGINT, SIGTERM, SIGHUP and SIGQUIT at full speed: 128 + signal, within 1 s (5 s under a sanitizer), terminal restored",
        arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)] as [(Int32, Int32)])
    func signalAtFullSpeed(signal: Int32, status: Int32) throws {
        let tmux = try TmuxSession([PonyTopBinary.path, "--scenario", "flood"])
        #expect(tmux.waitFor("Mail types ("))
        let pid = try #require(tmux.programPID)
        let start = Date()
        kill(pid, signal)
        // The process itself must be gone within a second; the pane's report of it comes after. Under a sanitizer,
        // whose slowdown and exit-time checks break the 1 s bound, only the 5 s deadline that catches a hang holds.
        let gone = waitUntil(timeout: 5, pollingEvery: 0.005) { kill(pid, 0) != 0 && errno == ESRCH }
        let took = Date().timeIntervalSince(start)
        #expect(gone, "ponytop still running \(took) s after signal \(signal)")
        if Sanitizer.active == nil {
            #expect(took < 1, "ponytop took \(took) s to exit after signal \(signal)")
        }
        tmux.expectExit(status)
        expectRestored(tmux)
    }
}
