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
        let (compiled, output) = try check(body)
        return compiled ? nil : output
    }

    /// Type-checks the program and returns whether it compiled and everything the compiler said, warnings included.
    static func check(_ body: String) throws -> (compiled: Bool, output: String) {
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
            class Courier {}
            final class Van: Courier {}
            final class Stranger {}
            struct Parcel: VerifiedMail { typealias RequiredSender = Courier }
            final class Desk {
                func take(_ parcel: Parcel, from courier: Courier) {}
                func takeOptional(_ parcel: Parcel, from courier: Courier?) {}
                func takeAlone(_ parcel: Parcel) {}
                func takeFromStranger(_ parcel: Parcel, from stranger: Stranger) {}
            }
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
        return (process.terminationStatus == 0, text)
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

    @Test("The harness accepts correct verified mail: every shape, a subclass sender, an exact sender")
    func verifiedControl() throws {
        let errors = try TypeChecker.diagnostics(
            for: """
                    let desk = Desk()
                    let courier = Courier()
                    office.register(desk, Desk.take)
                    office.register(desk, Desk.takeAlone)
                    office.register(sender: Van(), desk, Desk.takeAlone)
                    office.register(queue: .main, sender: courier, options: .once) { (_: Parcel, _: Courier) in }
                    office.register(sender: courier) { (_: Parcel) in }
                    office.register(Parcel.self) {}
                    office.keepLastMail(Parcel.self)
                    _ = office.mail(Parcel.self, sender: Van())
                    office.post(Parcel(), sender: courier)
                    office.post(Parcel(), sender: Van())
                """)
        #expect(errors == nil, "\(errors ?? "")")
    }

    @Test("The optional-sender shape for verified mail compiles with a deprecation warning")
    func verifiedOptionalSenderDeprecated() throws {
        for code in [
            "office.register(Desk(), Desk.takeOptional)", "office.register { (_: Parcel, _: Courier?) in }",
        ] {
            let (compiled, output) = try TypeChecker.check("        \(code)")
            #expect(compiled, "\(code): \(output)")
            #expect(output.contains("deprecated"), "\(code): \(output)")
            #expect(output.contains("take M.RequiredSender"), "\(code): \(output)")
        }
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
            ("verified mail posted without a sender", "office.post(Parcel())", "error"),
            ("verified mail posted with a nil sender", "office.post(Parcel(), sender: nil)", "error"),
            ("verified mail posted by another type", "office.post(Parcel(), sender: Stranger())", "error"),
            (
                "verified mail posted with an optional sender",
                "let courier: Courier? = Courier(); office.post(Parcel(), sender: courier)", "error"
            ),
            (
                "verified mail posted through the unverified overload",
                "office.post(Parcel(), sender: Courier() as AnyObject)", "error"
            ),
            (
                "verified mail relayed by another type",
                "office.post(Parcel(), sender: Stranger(), origin: .relayed)", "error"
            ),
            (
                "a block for verified mail taking another sender type",
                "office.register { (_: Parcel, _: Stranger) in }", "error"
            ),
            (
                "a method for verified mail taking another sender type",
                "office.register(Desk(), Desk.takeFromStranger)", "error"
            ),
            (
                "an exact sender of another type for a verified method",
                "office.register(sender: Stranger(), Desk(), Desk.takeAlone)", "error"
            ),
            (
                "an exact sender of another type for a verified block",
                "office.register(sender: Stranger()) { (_: Parcel, _: Courier) in }", "error"
            ),
            (
                "an exact sender of another type for a verified no-parameter block",
                "office.register(sender: Stranger(), Parcel.self) {}", "error"
            ),
            (
                "an exact sender of another type for a verified stream",
                "_ = office.mail(Parcel.self, sender: Stranger())", "error"
            ),
            ("verified mail is not Mail", "func needsMail<M: Mail>(_: M) {}; needsMail(Parcel())", "Mail"),

        ])
    func rejected(_ what: String, _ code: String, _ expected: String) throws {
        let errors = try TypeChecker.diagnostics(for: "        \(code)")
        let text = try #require(errors, "\(what) compiled")
        #expect(text.contains("error:"), "\(what): \(text)")
        #expect(text.contains(expected), "\(what): \(text)")
    }
}
