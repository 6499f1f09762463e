import PonyExpressRelay
import Testing

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
        let configuration = try RelayConfiguration(url: "postgresql://app@[::1]/orders")
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
}
