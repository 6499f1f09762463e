import Glibc
import PonyExpressAgent

/// `ponytop --list`: the apps whose agents answer, one a line; sockets left by processes that are gone are removed.
enum AgentList {
    static func lines(directory: RuntimeDirectory = RuntimeDirectory()) -> [String] {
        var rows: [[String]] = []
        for socket in directory.sockets() {
            do {
                let client = try AgentClient.connect(to: .socket(socket.path), directory: directory, timeout: 1)
                client.close()
                rows.append([
                    String(client.hello.pid), client.hello.processName, since(client.hello.startedAt), socket.path,
                ])
            } catch let error as AgentClientError where error.isTransient {
                // Nobody listens: the app crashed or was killed, or its pid now belongs to another program.
                socket.remove()
            } catch {
                rows.append([String(socket.pid), socket.processName, "-", socket.path + "  (\(error))"])
            }
        }
        guard !rows.isEmpty else { return [] }
        let header = ["PID", "NAME", "SINCE", "SOCKET"]
        let widths = (0..<3).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
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
