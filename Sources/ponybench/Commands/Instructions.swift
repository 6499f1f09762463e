import ArgumentParser
import Foundation
import PonyExpress
import PonyExpressMonitor

/// Counts the instructions one operation of PonyExpress executes, under valgrind's callgrind: a figure that does not
/// move with the load of a shared machine, for changes too small to time.
struct Instructions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Count instructions per operation under valgrind --tool=callgrind (valgrind must be installed).",
        discussion: """
            Runs `ponybench repeat <operation> --count N` and `--count 2N` under callgrind and prints (I(2N) - I(N)) \
            / N: the instructions of one operation, with start-up and warm-up cancelled out.
            """)

    @Option(help: "Operations per run; the second run does twice as many.")
    var count = 20_000

    @Argument(help: "The operations to count; all of them by default.")
    var operations: [RepeatedOperation] = RepeatedOperation.allCases

    mutating func run() throws {
        let valgrind = try Self.findValgrind()
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        print("| operation | instructions |")
        print("|---|---:|")
        for operation in operations {
            let once = try Self.instructions(valgrind, me, operation, count)
            let twice = try Self.instructions(valgrind, me, operation, 2 * count)
            print("| \(operation.rawValue) | \((twice - once) / count) |")
        }
    }

    private static func findValgrind() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ValidationError("valgrind is not on PATH; install it (apt-get install valgrind) to count instructions")
    }

    /// The instructions callgrind counted for a whole run of `ponybench repeat`.
    private static func instructions(
        _ valgrind: String, _ me: String, _ operation: RepeatedOperation, _ count: Int
    ) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = [
            "--tool=callgrind", "--callgrind-out-file=/dev/null", me, "repeat", operation.rawValue, "--count",
            String(count),
        ]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // callgrind ends with "==PID== Collected : 123456789".
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let figure = Int(line.split(separator: ":").last!.filter(\.isNumber))
        else {
            throw ValidationError("callgrind failed on `repeat \(operation.rawValue)`:\n\(text.suffix(2_000))")
        }
        return figure
    }
}

/// One PonyExpress operation, repeated without timing; the last two are the lock-and-dictionary bus's, to compare.
enum RepeatedOperation: String, CaseIterable, ExpressibleByArgument {
    case post1 = "post-1"
    case post10 = "post-10"
    case post100 = "post-100"
    case postMethod = "post-method"
    case post1Tapped = "post-1-tap"
    case post1Monitored = "post-1-monitor"
    case post100Monitored = "post-100-monitor"
    case post1InTurnMonitored = "post-1-in-turn-monitor"
    case post1Of8InTurnMonitored = "post-1-of-8-in-turn-monitor"
    case post1Kept = "post-1-kept"
    case registerUnregister = "register-unregister"
    case registerUnregisterMethod = "register-unregister-method"
    case registerUnregisterPosted = "register-unregister-posted"
    case dictionaryPost1 = "dictionary-post-1"
    case dictionaryRegisterUnregister = "dictionary-register-unregister"
}

/// Runs one operation many times, for `instructions` to count under callgrind.
struct Repeat: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run one PonyExpress operation many times without timing (what `instructions` counts).")

    @Argument(help: "The operation.")
    var operation: RepeatedOperation

    @Option(help: "How many times.")
    var count = 20_000

    mutating func run() throws {
        PonyBench.becomeMultithreaded()
        let office = PostOffice()
        let mail = BenchMail(value: 7)
        let recipient = BenchRecipient()
        switch operation {
        case .post1, .post10, .post100:
            let recipients = operation == .post1 ? 1 : operation == .post10 ? 10 : 100
            for _ in 0..<recipients { office.register { (mail: BenchMail) in blackHole(mail) } }
            office.post(mail)
            for _ in 0..<count { office.post(mail) }
        case .post1Tapped, .post1Monitored, .post100Monitored:
            if operation == .post1Tapped {
                office.attach(CountingTap())
            } else {
                PostOfficeMonitor().attach(to: office)
            }
            let recipients = operation == .post100Monitored ? 100 : 1
            for _ in 0..<recipients { office.register { (mail: BenchMail) in blackHole(mail) } }
            office.post(mail)
            for _ in 0..<count { office.post(mail) }
        case .post1InTurnMonitored, .post1Of8InTurnMonitored:
            // Mail types in turn, each to its own recipient, as `compare`'s rows of that name post them.
            PostOfficeMonitor().attach(to: office)
            let types = operation == .post1InTurnMonitored ? 2 : 8
            for index in 0..<types { TurnMails.register(index, on: office) }
            for index in 0..<count { TurnMails.post(index % types, to: office) }
        case .post1Kept:
            office.keepLastMail(BenchMail.self)
            office.register { (mail: BenchMail) in blackHole(mail) }
            office.post(mail)
            for _ in 0..<count { office.post(mail) }
        case .postMethod:
            office.register(recipient, BenchRecipient.receive)
            office.post(mail)
            for _ in 0..<count { office.post(mail) }
        case .registerUnregister:
            for _ in 0..<count { office.unregister(office.register { (mail: BenchMail) in blackHole(mail) }) }
        case .registerUnregisterMethod:
            for _ in 0..<count { office.unregister(office.register(recipient, BenchRecipient.receive)) }
        case .registerUnregisterPosted:
            // The mail type has a recipient and has been posted, so its route exists and changes with each.
            office.register { (mail: BenchMail) in blackHole(mail) }
            office.post(mail)
            for _ in 0..<count { office.unregister(office.register { (mail: BenchMail) in blackHole(mail) }) }
        case .dictionaryPost1:
            let bus = LockedDictionaryBus()
            _ = bus.subscribe { blackHole($0) }
            bus.post(mail)
            for _ in 0..<count { bus.post(mail) }
        case .dictionaryRegisterUnregister:
            let bus = LockedDictionaryBus()
            for _ in 0..<count { bus.unsubscribe(bus.subscribe { blackHole($0) }) }
        }
        withExtendedLifetime(recipient) {}
    }
}
