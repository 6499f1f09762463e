import PonyExpress
import PonyExpressMonitor
import Testing

private struct Reachability: Mail {
    var isReachable: Bool
}

@Suite("The monitor and registration options")
struct RegistrationOptionsMonitorTests {
    @Test("A snapshot carries a registration's options, its over-limit mark and its replays")
    func optionsInSnapshot() {
        let (office, monitor, _) = watchedOffice()
        office.keepLastMail(Reachability.self)
        office.setRecipientLimit(1, for: Reachability.self)
        office.post(Reachability(isReachable: true))
        let plain = office.register { (_: Reachability) in }
        let replaying = office.register(options: .replay) { (_: Reachability) in }
        let once = office.register(options: .once) { (_: Reachability) in }
        let recipients = monitor.snapshot().recipients(of: TypeIdentity(Reachability.self))
        let byId = Dictionary(uniqueKeysWithValues: recipients.map { ($0.info.id, $0) })
        #expect(byId[plain]?.info.options == [])
        #expect(byId[plain]?.info.isOverLimit == false)
        #expect(byId[plain]?.replays == 0)
        #expect(byId[replaying]?.info.options == [.replay])
        #expect(byId[replaying]?.info.isOverLimit == true)
        #expect(byId[replaying]?.replays == 1)
        #expect(byId[replaying]?.deliveries == 1)
        #expect(byId[once]?.info.isOnce == true)
        office.post(Reachability(isReachable: false))
        let after = monitor.snapshot().recipients(of: TypeIdentity(Reachability.self))
        #expect(after.map(\.info.id) == [plain, replaying], "the once registration delivered and left")
        #expect(after.first { $0.info.id == replaying }?.replays == 1)
    }
}
