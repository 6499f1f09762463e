import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Reachability: Mail {
    var isReachable: Bool
}

private struct Untracked: Mail {
    var value: Int
}

/// Immutable, and open for `Dog`: a non-final class is `Sendable` only unchecked.
private class Animal: Mail, @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class Dog: Animal, @unchecked Sendable {}

private final class Router {}

@Suite("Replaying the last mail", .blocksItsThread)
struct ReplayTests {
    @Test("A replay registration receives the kept mail at once, then later posts")
    func replaysKeptMail() {
        let office = PostOffice()
        office.keepLastMail(Reachability.self)
        office.post(Reachability(isReachable: false))
        office.post(Reachability(isReachable: true))
        let log = Tally<Bool>()
        office.register(options: .replay) { (mail: Reachability) in log.add(mail.isReachable) }
        #expect(log.all == [true])
        office.post(Reachability(isReachable: false))
        #expect(log.all == [true, false])
        #expect(office.lastMail(Reachability.self)?.isReachable == false)
    }

    @Test("Nothing is replayed before the first post, to a plain registration, or for a type that keeps nothing")
    func nothingToReplay() {
        let office = PostOffice()
        office.keepLastMail(Reachability.self)
        let log = Tally<String>()
        office.register(options: .replay) { (_: Reachability) in log.add("before any post") }
        office.post(Reachability(isReachable: true))
        office.register { (_: Reachability) in log.add("plain") }
        office.post(Untracked(value: 1))
        office.register(options: .replay) { (_: Untracked) in log.add("untracked") }
        #expect(log.all == ["before any post"])
        #expect(office.lastMail(Untracked.self) == nil)
    }

    @Test("Replay applies the sender filter: exact sender, sender type, and a released sender")
    func replayWithSenderFilter() {
        let office = PostOffice()
        office.keepLastMail(Reachability.self)
        let router = Router()
        office.post(Reachability(isReachable: true), sender: router)
        let log = Tally<String>()
        office.register(sender: router, options: .replay) { (_: Reachability) in log.add("exact") }
        office.register(sender: Router(), options: .replay) { (_: Reachability) in log.add("other instance") }
        office.register(options: .replay) { (_: Reachability, _: Router) in log.add("router type") }
        office.register(options: .replay) { (_: Reachability, _: Animal) in log.add("wrong type") }
        office.register(options: .replay) { (_: Reachability) in log.add("any") }
        #expect(log.all == ["exact", "router type", "any"])

        do {
            let transient = Router()
            office.post(Reachability(isReachable: false), sender: transient)
        }
        let afterRelease = Tally<String>()
        office.register(options: .replay) { (_: Reachability, _: Router?) in afterRelease.add("optional sender") }
        office.register(options: .replay) { (_: Reachability) in afterRelease.add("any") }
        #expect(afterRelease.all == ["any"])
    }

    @Test("A queued replay runs on the recipient's queue")
    func replayOnQueue() {
        let office = PostOffice()
        office.keepLastMail(Reachability.self)
        office.post(Reachability(isReachable: true))
        let queue = DispatchQueue(label: "replay")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Tally<Bool>()
        office.register(queue: queue, options: .replay) { (_: Reachability) in
            onQueue.add(DispatchQueue.getSpecific(key: key) == true)
        }
        queue.sync {}
        #expect(onQueue.all == [true])
    }

    @Test("Replay and once together: the kept mail if there is one, and nothing after")
    func replayOnce() {
        let office = PostOffice()
        office.keepLastMail(Reachability.self)
        office.post(Reachability(isReachable: true))
        let log = Tally<Bool>()
        office.register(options: [.once, .replay]) { (mail: Reachability) in log.add(mail.isReachable) }
        office.post(Reachability(isReachable: false))
        #expect(log.all == [true])
        #expect(office.recipientCount == 0)
    }

    @Test("A class type keeps its subclasses' mail; replays are tapped as deliveries marked replay")
    func replayTapped() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        office.keepLastMail(Animal.self)
        office.post(Dog("Rex"))
        let log = Tally<String>()
        let id = office.register(options: .replay) { (animal: Animal) in log.add(animal.name) }
        #expect(log.all == ["Rex"])
        let replay = tap.delivered.last
        #expect(replay?.recipient == id)
        #expect(replay?.isReplay == true)
        #expect(replay?.postId == 0)
        #expect(tap.delivered.filter { !$0.isReplay }.isEmpty)
        #expect(tap.posted.count == 1)
    }

    @Test("forgetLastMail releases the kept mail and stops keeping")
    func forget() {
        let office = PostOffice()
        office.keepLastMail(Reachability.self)
        office.post(Reachability(isReachable: true))
        office.forgetLastMail(Reachability.self)
        office.post(Reachability(isReachable: false))
        #expect(office.lastMail(Reachability.self) == nil)
    }
}

@Suite("Replay under concurrent posts", .blocksItsThread, .tags(.concurrency))
struct ReplayConcurrencyTests {
    @Test("Registering with replay while 4 threads post: no mail is missed, repeated or stale")
    func replayMeetsPosts() {
        let office = PostOffice()
        office.keepLastMail(Untracked.self)
        office.post(Untracked(value: -1))
        let lasts = (0..<50).map { _ in Tally<Int>() }
        let finished = concurrently(5) { index in
            if index == 4 {
                for tally in lasts { office.register(options: .replay) { (mail: Untracked) in tally.add(mail.value) } }
            } else {
                for value in 0..<500 { office.post(Untracked(value: index * 1_000 + value)) }
            }
        }
        #expect(finished)
        office.post(Untracked(value: 99_999))
        // Thread t posts t * 1000 + 0..<500 in order. A registration replays the last post before it and is on the
        // route of every post after it, so from each thread a recipient has a run of that thread's posts ending
        // with its last (the first of a run may be the replay), nothing twice; and a recipient registered later
        // starts each run no earlier than one registered before it.
        var previousStarts: [Int: Int] = [:]
        for (number, tally) in lasts.enumerated() {
            let values = tally.all
            #expect(values.last == 99_999, "recipient \(number) missed the final post")
            let received = values.dropLast()
            #expect(!received.isEmpty, "recipient \(number) got no replay")
            #expect(Set(received).count == received.count, "recipient \(number) got a post twice: \(received)")
            let replayedFirstPost = received.contains(-1)
            var starts: [Int: Int] = [:]
            for thread in 0..<4 {
                let run = received.filter { $0 >= thread * 1_000 && $0 < thread * 1_000 + 500 }.sorted()
                guard let first = run.first else {
                    #expect(
                        !replayedFirstPost, "recipient \(number) registered before any post, missed thread \(thread)")
                    continue
                }
                #expect(run == Array(first..<(thread * 1_000 + 500)), "recipient \(number), thread \(thread): a gap")
                #expect(!replayedFirstPost || first == thread * 1_000, "recipient \(number) missed thread \(thread)")
                starts[thread] = first
            }
            for (thread, start) in previousStarts {
                #expect((starts[thread] ?? .max) >= start, "recipient \(number) got older mail than the one before it")
            }
            previousStarts = starts
        }
    }
}
