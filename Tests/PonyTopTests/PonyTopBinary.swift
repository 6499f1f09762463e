import Foundation

/// The `ponytop` executable that `swift build` / `swift test` built next to the test bundle (same build
/// directory), or the one named by `PONYTOP_BINARY`.
enum PonyTopBinary {
    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["PONYTOP_BINARY"] { return path }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // The bundle is either the test executable itself or a directory beside ponytop.
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("ponytop").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appendingPathComponent("ponytop").path
    }()

    static var exists: Bool { FileManager.default.isExecutableFile(atPath: path) }
}
