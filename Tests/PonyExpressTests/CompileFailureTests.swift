import Foundation
import Testing

/// Type-checks small programs against the built PonyExpress module and reads the compiler's verdict, so that the
/// registrations and posts the type system must reject are proven to be rejected.
private enum TypeChecker {
    static let modules: URL = {
        // The test bundle lives in the build folder, next to the `Modules` folder of the package's modules.
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("Modules")
    }()

    static let swiftc: String = {
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
            + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swiftc"
    }()

    /// Returns the compiler's diagnostics, or `nil` when the program type-checks.
    static func diagnostics(for body: String) throws -> String? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pony-typecheck-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snippet.swift")
        let program = """
            import PonyExpress
            struct Ping: Mail {}
            protocol CartEvent: Mail {}
            final class Recipient { func receive(_ ping: Ping) {} }
            struct NotAnObject { func receive(_ ping: Ping) {} }
            func snippet() {
                let office = PostOffice()
            \(body)
            }
            """
        try program.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = [
            "-typecheck", "-swift-version", "6", "-I", modules.path,
            "-module-cache-path", directory.appendingPathComponent("cache").path, file.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : text
    }
}

@Suite("Wrong registrations fail to compile")
struct CompileFailureTests {
    @Test("The harness accepts correct code")
    func control() throws {
        let errors = try TypeChecker.diagnostics(
            for: """
                    let recipient = Recipient()
                    office.register(recipient, Recipient.receive)
                    office.register { (_: Ping, _: Recipient?) in }
                    office.post(Ping(), sender: recipient)
                """)
        #expect(errors == nil, "\(errors ?? "")")
    }

    @Test(
        "Rejected programs",
        arguments: [
            ("a posted value that is not Mail", "office.post(42)", "conform to 'Mail'"),
            // The compiler names the block's type as what cannot be registered (it tries it as a MailRecipient).
            (
                "a block for a type that is not Mail", "office.register { (_: String) in }",
                "'(String) -> ()' cannot conform"
            ),
            (
                "a block for a protocol type (its existential does not conform to Mail)",
                "office.register { (_: any CartEvent) in }", "'any CartEvent' conform to 'Mail'"
            ),
            ("a sender that is not an object", "office.post(Ping(), sender: 5)", "class"),
            (
                "a typed sender that is not an object", "office.register { (_: Ping, _: Int) in }",
                "AnyObject"
            ),
            (
                "a recipient that is not an object", "office.register(NotAnObject(), NotAnObject.receive)",
                "AnyObject"
            ),
            (
                "a method whose mail does not match the explicit type",
                "office.register(Ping.self, Recipient(), Recipient.receive)",
                "to expected argument type '(Recipient) -> () -> Void'"
            ),

        ])
    func rejected(_ what: String, _ code: String, _ expected: String) throws {
        let errors = try TypeChecker.diagnostics(for: "        \(code)")
        let text = try #require(errors, "\(what) compiled")
        #expect(text.contains("error:"), "\(what): \(text)")
        #expect(text.contains(expected), "\(what): \(text)")
    }
}
