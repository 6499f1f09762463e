import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail { var value = 0 }

private class Animal: Mail {}
private class Dog: Animal {}
private final class Puppy: Dog {}

private class Sender {}
private final class SubSender: Sender {}
private final class OtherSender {}

@Suite("Delivery rules: types, senders and order")
struct DeliveryRulesTests {
    /// Posts with no sender, a `Sender`, a `SubSender` and an `OtherSender`, and returns which were delivered.
    private func deliveries(_ register: (PostOffice, Tally<String>) -> Void) -> [String] {
        let office = PostOffice()
        let log = Tally<String>()
        register(office, log)
        office.post(Ping(), sender: nil)
        office.post(Ping(), sender: Sender())
        office.post(Ping(), sender: SubSender())
        office.post(Ping(), sender: OtherSender())
        return log.all
    }

    @Test("A handler without a sender parameter receives every sender, nil included")
    func noSenderParameter() {
        let got = deliveries { office, log in
            office.register { (_: Ping) in log.add("any") }
        }
        #expect(got == ["any", "any", "any", "any"])
    }

    @Test("A handler taking S? receives nil and S or its subclasses")
    func optionalSender() {
        let got = deliveries { office, log in
            office.register { (_: Ping, sender: Sender?) in
                log.add(sender.map { String(describing: type(of: $0)) } ?? "nil")
            }
        }
        #expect(got == ["nil", "Sender", "SubSender"])
    }

    @Test("A handler taking S receives only S or its subclasses")
    func requiredSender() {
        let got = deliveries { office, log in
            office.register { (_: Ping, sender: Sender) in log.add(String(describing: type(of: sender))) }
        }
        #expect(got == ["Sender", "SubSender"])
    }

    @Test("A handler taking a subclass sender does not receive its superclass")
    func subclassSender() {
        let got = deliveries { office, log in
            office.register { (_: Ping, _: SubSender) in log.add("sub") }
        }
        #expect(got == ["sub"])
    }

    @Test("sender: x receives only mail posted by exactly x, whatever the handler's shape")
    func exactSender() {
        let office = PostOffice()
        let log = Tally<String>()
        let chosen = Sender()
        office.register(sender: chosen) { (_: Ping) in log.add("block") }
        office.register(sender: chosen) { (_: Ping, _: Sender) in log.add("typed") }
        office.register(sender: chosen) { (_: Ping, _: Sender?) in log.add("optional") }
        office.register(sender: chosen, Ping.self) { log.add("bare") }
        office.post(Ping())
        office.post(Ping(), sender: Sender())
        office.post(Ping(), sender: chosen)
        #expect(log.all == ["block", "typed", "optional", "bare"])
        withExtendedLifetime(chosen) {}
    }

    @Test("A registration for a class receives its subclasses, never its superclass")
    func subclassDelivery() {
        let office = PostOffice()
        let log = Tally<String>()
        office.register { (_: Animal) in log.add("animal") }
        office.register { (_: Dog) in log.add("dog") }
        office.register { (_: Puppy) in log.add("puppy") }
        office.post(Animal())
        #expect(log.all == ["animal"])
        office.post(Dog())
        #expect(log.all == ["animal", "animal", "dog"])
        office.post(Puppy())
        #expect(log.all == ["animal", "animal", "dog", "animal", "dog", "puppy"])
    }

    @Test("The dynamic type decides: a subclass posted through a superclass reference reaches subclass recipients")
    func dynamicType() {
        let office = PostOffice()
        let log = Tally<String>()
        office.register { (_: Dog) in log.add("dog") }
        let animal: Animal = Dog()
        office.post(animal)
        #expect(log.all == ["dog"])
    }

    @Test("Recipients run in registration order across superclass and subclass registrations")
    func order() {
        let office = PostOffice()
        let log = Tally<Int>()
        office.register { (_: Dog) in log.add(1) }
        office.register { (_: Animal) in log.add(2) }
        office.register { (_: Puppy) in log.add(3) }
        office.register { (_: Animal) in log.add(4) }
        office.register { (_: Dog) in log.add(5) }
        for _ in 0..<3 { office.post(Puppy()) }
        #expect(log.all == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5])
    }

    @Test("A superclass registered after its subclass was posted still receives the subclass")
    func lateSuperclassRegistration() {
        let office = PostOffice()
        let log = Tally<String>()
        office.register { (_: Puppy) in log.add("puppy") }
        office.post(Puppy())
        office.register { (_: Animal) in log.add("animal") }
        office.post(Puppy())
        #expect(log.all == ["puppy", "puppy", "animal"])
    }

    @Test("Mail of one type never reaches recipients of another")
    func typeIsolation() {
        let office = PostOffice()
        let log = Tally<String>()
        office.register { (_: Ping) in log.add("ping") }
        office.register { (_: Animal) in log.add("animal") }
        office.post(Ping())
        #expect(log.all == ["ping"])
    }

    @Test("A parameterless handler registered with an explicit mail type")
    func parameterless() {
        let office = PostOffice()
        let log = Tally<String>()
        final class Screen: Sendable {
            let log: Tally<String>
            init(log: Tally<String>) { self.log = log }
            func refresh() { log.add("refresh") }
        }
        let screen = Screen(log: log)
        office.register(Ping.self, screen, Screen.refresh)
        office.register(Ping.self) { log.add("block") }
        office.post(Ping())
        #expect(log.all == ["refresh", "block"])
    }

    @Test("Post offices are independent")
    func independentOffices() {
        let first = PostOffice()
        let second = PostOffice()
        let log = Tally<String>()
        first.register { (_: Ping) in log.add("first") }
        second.register { (_: Ping) in log.add("second") }
        first.post(Ping())
        #expect(log.all == ["first"])
    }
}
