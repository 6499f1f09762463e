import Foundation

/// The `ponydemo` executable that `swift build` / `swift test` built next to the test bundle, or the one named by
/// `PONYDEMO_BINARY`.
enum DemoBinary {
    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["PONYDEMO_BINARY"] { return path }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("ponydemo").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appendingPathComponent("ponydemo").path
    }()

    /// The value of one series in Prometheus text, such as `ponyexpress_posts_total{mail_type="Reachability"}`.
    static func value(of series: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1).split(separator: " ").first ?? "")
        }
        return nil
    }
}
