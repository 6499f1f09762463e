import Dispatch
import Glibc
import PonyExpressAgent
import PonyExpressMonitor
import Synchronization

/// `ponytop --list`: the apps whose agents answer, one a line. A socket is removed only when its app is surely gone
/// (no process has its pid, or a later process does); an app that is alive but does not answer (stopped in a
/// debugger, busy) is listed as not answering and keeps its socket.
///
/// Every app is asked at once and given as long as `--attach` gives one (3 s), so that a busy app is not called
/// stopped by `--list` and then attached by `--attach`, and a list of many apps still takes at most 3 s.
enum AgentList {
    /// How many apps are asked at a time.
    static let concurrentQuestions = 32

    static func lines(directory: RuntimeDirectory = RuntimeDirectory()) -> [String] {
        let sockets = directory.sockets().filter { socket in
            // The app crashed or was killed, or its pid now belongs to a later program.
            guard socket.isLeftBehind else { return true }
            socket.remove()
            return false
        }
        let answers = Mutex([[String]?](repeating: nil, count: sockets.count))
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: concurrentQuestions)
        // A queue of its own, whose blocks may each wait for an answer on a thread of their own.
        let queue = DispatchQueue(label: "ponytop.list", attributes: .concurrent)
        for (index, socket) in sockets.enumerated() {
            slots.wait()
            queue.async(group: group) {
                defer { slots.signal() }
                let row: [String]
                do {
                    let client = try AgentClient.connect(to: .socket(socket.path), directory: directory)
                    client.close()
                    row = [
                        String(client.hello.pid), client.hello.processName, since(client.hello.startedAt), socket.path,
                    ]
                } catch {
                    row = [String(socket.pid), socket.processName, "-", socket.path + "  (\(error))"]
                }
                answers.withLock { $0[index] = row }
            }
        }
        group.wait()
        var rows = answers.withLock { $0.compactMap { $0 } }
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
