import Foundation
import PonyExpress
import PonyTestSupport
import Testing

@testable import PonyExpressRelay

#if canImport(Glibc)
    import Glibc
#endif

/// The fleet's key comes from the environment or a private file, is long enough, and never appears in a message.
struct RelayKeyTests {
    static let secret = "KioqKioqKioqKioqKioqKioqKioqKioqKioqKioqKio="

    @Test func aKeyShorterThan32BytesIsRefusedNamingTheMinimum() {
        #expect(
            throws: RelayConfigurationError(
                "the relay key must be at least 32 bytes, got 31 (make one with openssl rand -base64 32)"
            )
        ) { try RelayKey(bytes: [UInt8](repeating: 1, count: 31)) }
        let short = Data(repeating: 7, count: 16).base64EncodedString()
        #expect(
            throws: RelayConfigurationError(
                "PONYEXPRESS_RELAY_KEY: the relay key must be at least 32 bytes, got 16 (make one with openssl rand -base64 32)"
            )
        ) { try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY": short]) }
    }

    @Test func theEnvironmentVariableHoldsTheKeyInBase64AndNoMessageShowsIt() throws {
        let key = try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY": Self.secret + "\n"])
        #expect(key.bytes == [UInt8](repeating: 0x2A, count: 32))
        #expect(key.description == "RelayKey(32 bytes)")
        do {
            _ = try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY": "not base64 but secret!"])
            Issue.record("text that is not base64 was taken")
        } catch {
            #expect(!error.description.contains("secret"))
            #expect(error.description.contains("not base64"))
        }
        #expect(
            throws: RelayConfigurationError(
                "no relay key: set PONYEXPRESS_RELAY_KEY (base64) or PONYEXPRESS_RELAY_KEY_FILE (a file only its owner can read)"
            )
        ) { try RelayKey.fromEnvironment([:]) }
        #expect(throws: RelayConfigurationError("set PONYEXPRESS_RELAY_KEY or PONYEXPRESS_RELAY_KEY_FILE, not both")) {
            try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY": Self.secret, "PONYEXPRESS_RELAY_KEY_FILE": "/x"])
        }
    }

    @Test func aKeyFileIsReadOnlyWhenNeitherGroupNorOthersCanReadIt() throws {
        let folder = temporaryRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/relay.key"
        try Self.secret.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        #expect(
            throws: RelayConfigurationError(
                "PONYEXPRESS_RELAY_KEY_FILE: \(path) can be read or written by its group or others (mode 644); chmod 600 it"
            )
        ) { try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY_FILE": path]) }
        chmod(path, 0o600)
        #expect(try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY_FILE": path]).bytes.count == 32)
        #expect(throws: RelayConfigurationError.self) {
            try RelayKey.fromEnvironment(["PONYEXPRESS_RELAY_KEY_FILE": folder + "/missing"])
        }
    }

    @Test func aRelayWithoutAuthenticationDoesNotStartUnlessToldSo() throws {
        var configuration = RelayConfiguration(host: "127.0.0.1", username: "nobody", database: "none")
        do {
            _ = try PostgresRelay.start(office: PostOffice(), configuration: configuration)
            Issue.record("a relay without a key started")
        } catch {
            #expect(error.description.hasPrefix("the relay has no key"))
            #expect(error.description.contains(".unauthenticated"))
        }
        configuration.replayWindow = .milliseconds(10)
        configuration.authentication = .unauthenticated
        #expect(throws: RelayConfigurationError("the replay window must be 1 to 600 seconds, got 10 ms")) {
            try configuration.validate()
        }
    }
}
