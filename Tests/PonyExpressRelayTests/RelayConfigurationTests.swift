import Foundation
import PonyTestSupport
import Testing

@testable import PonyExpressRelay

@Suite struct RelayConfigurationTests {
    @Test func readsEveryPartOfAURL() throws {
        let configuration = try RelayConfiguration(
            url: "postgres://app:s%40cret@db.internal:6543/orders", channel: "mail")
        #expect(configuration.username == "app")
        #expect(configuration.password == "s@cret")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.database == "orders")
        #expect(configuration.channel == "mail")
    }

    @Test func defaultsThePortAndTakesNoPassword() throws {
        let configuration = try RelayConfiguration(url: "postgresql://app@[::1]/orders", environment: [:])
        #expect(configuration.host == "::1")
        #expect(configuration.port == 5432)
        #expect(configuration.password == nil)
    }

    @Test func describesItselfWithoutThePassword() throws {
        let configuration = try RelayConfiguration(url: "postgres://app:hunter2@db:5432/orders", channel: "mail")
        #expect(!configuration.description.contains("hunter2"))
        #expect(configuration.description == "postgres://app:***@db:5432/orders channel mail")
    }

    @Test(arguments: [
        ("mysql://app@db/orders", "must start with postgres://"),
        ("postgres://db/orders", "has no USER@"),
        ("postgres://app@db", "has no /DATABASE"),
        ("postgres://app@db:99999/orders", "port must be a number from 1 to 65535"),
        ("postgres://app@db:port/orders", "port must be a number from 1 to 65535"),
        ("postgres://app:pass%zz@db/orders", "password has a malformed %-escape"),
        ("postgres://@db/orders", "user is empty"),
        ("postgres://app@db/", "database is empty"),
    ])
    func refusesAMalformedURLSayingWhatIsWrong(url: String, message: String) {
        #expect {
            try RelayConfiguration(url: url)
        } throws: { error in
            let text = (error as? RelayConfigurationError)?.description ?? ""
            return text.contains(message) && text.contains("expected postgres://USER") && !text.contains("\n")
        }
    }

    @Test func neverEchoesThePasswordOfARefusedURL() {
        #expect {
            try RelayConfiguration(url: "postgres://app:hunter2@db:0/orders")
        } throws: { error in
            !"\(error)".contains("hunter2")
        }
    }

    @Test(arguments: [String(repeating: "c", count: 64), "", #"mail"; DROP TABLE x; --"#, "café"])
    func refusesAChannelPostgreSQLWouldNotTakeAsIs(channel: String) {
        #expect(throws: RelayConfigurationError.self) {
            try RelayConfiguration(url: "postgres://app@db/orders", channel: channel)
        }
    }

    @Test func takesAChannelOfLettersDigitsAndUnderscores() throws {
        #expect(try RelayConfiguration(url: "postgres://app@db/orders", channel: "Cache_2").channel == "Cache_2")
    }

    @Test(arguments: [
        ("", SSLMode.disable, false, false),
        ("?sslmode=disable", .disable, false, false),
        ("?sslmode=prefer", .prefer, true, false),
        ("?sslmode=require", .require, true, true),
        ("?sslmode=verify-ca", .verifyCA, true, true),
        ("?sslmode=verify%2Dfull", .verifyFull, true, true),
    ])
    func mapsSSLModeToTLS(query: String, mode: SSLMode, allowed: Bool, enforced: Bool) throws {
        let url = "postgres://app:hunter2@db.internal:5432/orders" + query
        let configuration = try RelayConfiguration(url: url)
        #expect(try RelayURL(url).sslMode == mode)
        #expect(configuration.tls.isAllowed == allowed)
        #expect(configuration.tls.isEnforced == enforced)
        #expect((configuration.tls.sslContext != nil) == allowed)
        #expect(configuration.host == "db.internal", "the query is not part of the host or the database")
        #expect(configuration.database == "orders")
    }

    @Test("require only encrypts, as in libpq; verify-ca checks the signer; verify-full also the host")
    func checksTheServerCertificateAsLibpqDoes() {
        #expect(SSLMode.disable.certificateVerification == nil)
        #expect(SSLMode.prefer.certificateVerification == .some(.none))
        #expect(SSLMode.require.certificateVerification == .some(.none))
        #expect(SSLMode.verifyCA.certificateVerification == .noHostnameVerification)
        #expect(SSLMode.verifyFull.certificateVerification == .fullVerification)
    }

    @Test(arguments: [
        ("?sslmode=verify_full", "sslmode must be disable, prefer, require, verify-ca or verify-full, got verify_full"),
        ("?sslmode=allow", "sslmode must be disable, prefer, require, verify-ca or verify-full, got allow"),
        ("?sslmode=", "sslmode must be disable, prefer, require, verify-ca or verify-full, got "),
        ("?sslmode", "sslmode must be disable, prefer, require, verify-ca or verify-full, got "),
        ("?sslmode=REQUIRE", "got REQUIRE"),
        ("?sslmode=require%0Aroot", "got require\\u{a}root"),
        ("?sslmode=require&sslmode=disable", "gives sslmode twice"),
        ("?connect_timeout=5", "parameter connect_timeout is not supported; the only one is sslmode=disable, prefer"),
        ("?sslmode=%zz", "sslmode has a malformed %-escape"),
    ])
    func refusesAnSSLModeLibpqWouldNotTakeNamingTheValidOnes(query: String, message: String) {
        #expect {
            try RelayConfiguration(url: "postgres://app:hunter2@db/orders" + query)
        } throws: { error in
            let text = (error as? RelayConfigurationError)?.description ?? ""
            return text.contains(message) && !text.contains("\n") && !text.contains("hunter2")
        }
    }

    @Test func takesTheMissingPasswordFromPGPASSWORDAndTheURLsOverIt() throws {
        let environment = ["PGPASSWORD": "from-env", "HOME": "/nonexistent"]
        #expect(
            try RelayConfiguration(url: "postgres://app@db/orders", environment: environment).password == "from-env")
        #expect(
            try RelayConfiguration(url: "postgres://app:inline@db/orders", environment: environment).password
                == "inline")
    }

    @Test func takesTheMissingPasswordFromThePasswordFileAsLibpqDoes() throws {
        let directory = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/pgpass"
        let lines = [
            "# comment", "other:5432:orders:app:wrong-host", "db:5432:orders:app:ex\\:act", "*:*:*:app:any",
        ]
        let created = FileManager.default.createFile(
            atPath: file, contents: Data(lines.joined(separator: "\n").utf8), attributes: [.posixPermissions: 0o600])
        #expect(created)
        let environment = ["PGPASSFILE": file]
        #expect(try RelayConfiguration(url: "postgres://app@db/orders", environment: environment).password == "ex:act")
        #expect(
            try RelayConfiguration(url: "postgres://app@elsewhere:6000/x", environment: environment).password == "any")
        #expect(try RelayConfiguration(url: "postgres://bob@db/orders", environment: environment).password == nil)
        // A file that others can read is ignored, as libpq ignores it.
        chmod(file, 0o644)
        #expect(try RelayConfiguration(url: "postgres://app@db/orders", environment: environment).password == nil)
    }
}
