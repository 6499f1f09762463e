import Glibc
import PonyExpressAgent
import PonyExpressMonitor

/// `ponytop --list`: the apps whose agents answer, one a line. A socket is removed only when its app is surely gone
/// (no process has its pid, or a later process does); an app that is alive but does not answer (stopped in a
/// debugger, busy) is listed as not answering and keeps its socket.
enum AgentList {
    static func lines(directory: RuntimeDirectory = RuntimeDirectory()) -> [String] {
        var rows: [[String]] = []
        for socket in directory.sockets() {
            if socket.isLeftBehind {
                // The app crashed or was killed, or its pid now belongs to a later program.
                socket.remove()
                continue
            }
            do {
                let client = try AgentClient.connect(to: .socket(socket.path), directory: directory, timeout: 1)
                client.close()
                rows.append([
                    String(client.hello.pid), client.hello.processName, since(client.hello.startedAt), socket.path,
                ])
            } catch {
                rows.append([String(socket.pid), socket.processName, "-", socket.path + "  (\(error))"])
            }
        }
        guard !rows.isEmpty else { return [] }
        let header = ["PID", "NAME", "SINCE", "SOCKET"]
        let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        // Names and reasons come from the apps: their control characters are escaped before the widths are taken.
        rows = rows.map { $0.map(\.terminalSafe) }
        return ([header] + rows).map { row in
            (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count + 2) }.joined()
                + row[3]
        }
    }

    /// A start time as local date and time.
    static func since(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
