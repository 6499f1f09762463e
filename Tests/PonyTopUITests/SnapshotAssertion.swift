import Foundation
import PonyTopUI
import Testing

/// Compares a grid with a recorded text snapshot in `__Snapshots__/<name>.txt`: the characters, then the roles.
/// With `PONYTOP_RECORD=1` in the environment it records the snapshot instead; a snapshot that this changed or
/// created fails its test with a note that it was recorded, so that a recording run never passes as a check.
enum SnapshotAssertion {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")

    static func rendering(_ grid: Grid) -> String {
        "\(grid.width)x\(grid.height)\n" + grid.text + "\n--- styles ---\n" + grid.styleText + "\n"
    }

    static func check(_ grid: Grid, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name + ".txt")
        let actual = rendering(grid)
        let recorded = try? String(contentsOf: file, encoding: .utf8)
        if ProcessInfo.processInfo.environment["PONYTOP_RECORD"] == "1" {
            guard recorded != actual else { return }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record(
                "recorded \(name).txt (\(recorded == nil ? "new" : "changed")); run without PONYTOP_RECORD to check it",
                sourceLocation: sourceLocation)
            return
        }
        #expect(
            recorded != nil, "no snapshot \(name).txt; run with PONYTOP_RECORD=1 to record it",
            sourceLocation: sourceLocation)
        guard let recorded else { return }
        if recorded != actual {
            let expectedLines = recorded.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }
            let difference =
                first.map { "line \($0.offset + 1):\n  recorded: \($0.element.0)\n  actual:   \($0.element.1)" }
                ?? "different line counts"
            Issue.record(
                "\(name) differs from its snapshot (PONYTOP_RECORD=1 re-records), first at \(difference)\n\(actual)",
                sourceLocation: sourceLocation)
        }
    }
}
