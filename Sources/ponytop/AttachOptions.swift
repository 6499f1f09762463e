import ArgumentParser
import PonyExpressAgent

/// The options that choose a source other than a scenario, and recording: `--attach`, `--list`, `--record`,
/// `--replay`.
struct AttachOptions: ParsableArguments {
    @Option(
        name: .customLong("attach"),
        help: ArgumentHelp(
            "Watch a running app with the agent started: its PID, its socket PATH, or HOST:PORT.",
            valueName: "PID|PATH|HOST:PORT"))
    var attach: String?

    @Flag(name: .customLong("list"), help: "List the apps that can be attached to (pid, name, since, socket) and exit.")
    var list = false

    @Option(
        name: .customLong("record"),
        help: ArgumentHelp("Write every snapshot shown (scenario or attached) to FILE.", valueName: "FILE"))
    var record: String?

    @Flag(name: .customLong("force"), help: "Let --record overwrite an existing file.")
    var force = false

    @Option(
        name: .customLong("replay"),
        help: ArgumentHelp("Play back a --record file: p pauses, , and . step, [ and ] jump.", valueName: "FILE"))
    var replay: String?

    func validate() throws {
        if attach != nil, replay != nil {
            throw ValidationError("--attach and --replay cannot be combined: watch an app or play a recording")
        }
        if force, record == nil {
            throw ValidationError("--force applies to --record only: it lets --record overwrite an existing file")
        }
        if record != nil, replay != nil {
            throw ValidationError("--record and --replay cannot be combined: a replay is already recorded")
        }
        // A malformed address is a bad option (exit 64), found before anything starts.
        if let attach {
            do {
                _ = try AgentAddress(parsing: attach)
            } catch {
                throw ValidationError("--attach: \(error)")
            }
        }
    }
}
