import Foundation
import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ponytop --replay` in tmux: the keys the agent and ponytop articles promise, `,` `.` step one snapshot and
/// pause, `[` `]` jump a tenth of the recording, `0` goes back to the first, read from the header's
/// `replay FILE N/M of NAME`.
@Suite(
    "ponytop's replay keys in tmux", .blocksItsThread, .serialized,
    .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ReplayKeysTests {
    /// The shown snapshot's number and the recording's count, from the header.
    static func position(_ screen: String) -> (shown: Int, count: Int)? {
        for line in screen.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let replay = words.firstIndex(of: "replay"), replay + 3 < words.count, words[replay + 3] == "of"
            else { continue }
            let numbers = words[replay + 2].split(separator: "/")
            guard numbers.count == 2, let shown = Int(numbers[0]), let count = Int(numbers[1]) else { continue }
            return (shown, count)
        }
        return nil
    }

    @Test(", and . step one snapshot and pause; [ and ] jump a tenth of the recording")
    func keys() throws {
        let file = ChildProcess.temporaryFile("ponyrec")
        defer { unlink(file) }
        let recorded = try ChildProcess.run(
            [
                PonyTopBinary.path, "--scenario", "leaky", "--report", "json", "--duration", "10",
                "--record", file,
            ], timeout: 60)
        #expect(recorded.status == 0, "\(recorded.error)")
        let tmux = try TmuxSession([PonyTopBinary.path, "--replay", file])
        #expect(tmux.waitUntilScreen { Self.position($0) != nil })
        let count = try #require(Self.position(tmux.capture())?.count)
        #expect(count >= 15, "a 10 s recording, a snapshot each 0.5 s")
        let tenth = max(1, count / 10)

        func expectShown(_ shown: Int, after key: String, sourceLocation: SourceLocation = #_sourceLocation) {
            tmux.type(key)
            #expect(
                tmux.waitUntilScreen { Self.position($0)?.shown == shown },
                "after \(key): \(Self.position(tmux.capture()).map { "\($0.shown)/\($0.count)" } ?? "no position")",
                sourceLocation: sourceLocation)
        }

        // `.` pauses where it lands; ten jumps back reach the first snapshot from anywhere.
        tmux.type(".")
        #expect(tmux.waitFor("[PAUSED]"))
        for _ in 0..<10 { tmux.type("[") }
        #expect(tmux.waitUntilScreen { Self.position($0)?.shown == 1 })
        // The findings are those of the snapshot the keys reached, paused or not: none yet at the first.
        #expect(tmux.waitFor("findings 0"), "\(tmux.capture())")
        expectShown(2, after: ".")
        expectShown(3, after: ".")
        expectShown(2, after: ",")
        expectShown(2 + tenth, after: "]")
        expectShown(2, after: "[")
        // Paused, the replay stays where the keys put it.
        #expect(!tmux.waitUntilScreen(timeout: 1.5) { Self.position($0)?.shown != 2 }, "the paused replay moved")
        for _ in 0..<10 { tmux.type("]") }
        #expect(tmux.waitUntilScreen { Self.position($0)?.shown == count && $0.contains("END OF RECORDING") })
        // Both leaks by the end, reached paused. A slow build (AddressSanitizer on a busy machine) records slow
        // findings too, its queue waits having risen: the leaks are checked, not the count.
        #expect(
            tmux.waitUntilScreen {
                $0.contains("LEAK growingRegistrations CartUpdated")
                    && $0.contains("LEAK growingRegistrations LoginEvent")
            }, "both leaks by the end, reached paused: \(tmux.capture())")
        // r resets nothing in a replay, and says so in the words every source uses for a key it has no use for.
        tmux.type("r")
        #expect(tmux.waitFor("r resets what ponytop counts, not a replay"), "\(tmux.capture())")
        expectShown(count - 1, after: ",")
        // 0 goes back to the first snapshot from anywhere.
        expectShown(1, after: "0")
        tmux.type("q")
        tmux.expectExit(0)
    }
}
