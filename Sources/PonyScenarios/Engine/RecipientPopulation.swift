import Dispatch
import PonyExpress

/// The live recipients of a run, group by group, and the clock-driven ends of their lives.
///
/// Only the runner's lifecycle thread (and `start`/`stop`) touch it, under the runner's lock. What it registers,
/// and in which order, depends only on the scenario, the seed and how far the clock has run, never on when the
/// lifecycle thread happens to wake.
struct RecipientPopulation {
    /// One recipient: an object (or, for blocks, nothing) and its registrations.
    struct Member {
        var object: (any DemoRecipient)?
        var ids: [RecipientId]
        /// The scope this life is, for a group with a `scope`: it ends when the life ends.
        var scope: MailScope? = nil
    }

    /// One group's state.
    struct Group {
        let spec: ScenarioRecipients
        let entries: [MailEntry]
        let queue: DispatchQueue?
        let sender: DemoSenderFilter
        let inbox: Inbox
        /// Seconds each recipient lives, or `nil` for the whole run.
        let lifetime: Double?
        /// What happens when a life ends, made to fit the kind: a block cannot be released (the post office holds
        /// it) or registered again as the same object, so from code (the parser refuses both) a block that is to be
        /// released unregisters and one that is to re-register leaks.
        let end: ScenarioRecipients.End
        var slots: [Member] = []
        /// Recipients kept by `leak`: alive and registered, never unregistered.
        var kept: [Member] = []
        /// Registrations held: of the slots' members and the kept ones.
        var registrations = 0
        var random: SplitMix64
        /// Lives ended so far, for `leakEvery`.
        var lives = 0

        /// Makes a recipient and registers it for each of the group's mail types.
        /// For a group with a `scope`, the registrations are made in a new scope of that name, which the life's end
        /// ends.
        mutating func makeMember(office: PostOffice) -> Member {
            let object = spec.kind.objectType.map { $0.init(inbox: inbox) }
            guard let name = spec.scope else { return Member(object: object, ids: register(object, office: office)) }
            let scope = office.openScope(name)
            let ids = scope.run { register(object, office: office) }
            return Member(object: object, ids: ids, scope: scope)
        }

        /// Registers `object` (or, for `nil`, a block) for each of the group's mail types.
        mutating func register(_ object: (any DemoRecipient)?, office: PostOffice) -> [RecipientId] {
            let ids = entries.map { entry in
                if let object {
                    entry.subscribe(object, office, queue, sender)
                } else {
                    entry.observe(BlockObserver.Role(spec), inbox, office, queue, sender)
                }
            }
            registrations += ids.count
            return ids
        }

        /// Ends the life of `slot`'s recipient as the group's `end` says.
        /// - Returns: When the next life of this slot ends, or `nil` if the group has reached its limit.
        mutating func endLife(slot: Int, at time: Double, office: PostOffice) -> Double? {
            guard let lifetime else { return nil }
            // The life's scope ends after its end: unregistered, released or kept.
            let scope = slots[slot].scope
            defer { scope?.end() }
            lives += 1
            var end = end
            if let every = spec.leakEvery, lives % every == 0, registrations + entries.count <= spec.limit {
                end = .leak
            }
            switch end {
            case .unregister:
                for id in slots[slot].ids { office.unregister(id) }
                registrations -= slots[slot].ids.count
                slots[slot] = makeMember(office: office)
            case .release:
                // Dropped without unregistering: the registrations stay behind for the post office to prune.
                registrations -= slots[slot].ids.count
                slots[slot] = Member(object: nil, ids: [])
                slots[slot] = makeMember(office: office)
            case .leak:
                guard registrations + entries.count <= spec.limit else { return nil }
                kept.append(slots[slot])
                slots[slot] = makeMember(office: office)
            case .reregister:
                guard registrations + entries.count <= spec.limit else { return nil }
                let ids = register(slots[slot].object, office: office)
                slots[slot].ids += ids
            }
            return time + lifetime * (0.75 + 0.5 * random.nextUnit())
        }
    }

    static let maxCount = 1_000
    static let maxLimit = 100_000
    static let minLifetime = 0.01
    /// The most lives ended in one call of ``advance(to:)``, so that the lifecycle lock is never held for long.
    static let maxEndsPerAdvance = 500

    private(set) var groups: [Group] = []
    private var ends = LifeEndQueue()
    let office: PostOffice

    /// Makes the groups and registers every group's first recipients, in group order.
    init(
        scenario: Scenario, office: PostOffice, seed: UInt64, queues: [ScenarioQueue: DispatchQueue],
        senders: [ScenarioSenderType: [any DemoSender]]
    ) {
        self.office = office
        for (index, spec) in scenario.recipients.enumerated() {
            let sender: DemoSenderFilter =
                switch spec.sender {
                case .any: .any
                case .optional(let type): .optional(type.type)
                case .required(let type): .required(type.type)
                case .exact(let type): senders[type].flatMap(\.first).map { .exact($0) } ?? .required(type.type)
                }
            let count = Swift.min(Swift.max(spec.count, 0), Self.maxCount)
            let lifetime = spec.lifetime.flatMap { $0.isFinite && $0 > 0 ? Swift.max($0, Self.minLifetime) : nil }
            let handlerTime = spec.handlerTime.isFinite ? Swift.min(Swift.max(spec.handlerTime, 0), 0.1) : 0
            let end: ScenarioRecipients.End =
                switch (spec.end, spec.kind.isBlock) {
                case (.release, true): .unregister
                case (.reregister, true): .leak
                case (let end, _): end
                }
            var group = Group(
                spec: spec, entries: spec.mail.map(\.entry), queue: spec.queue == .none ? nil : queues[spec.queue],
                sender: sender, inbox: Inbox(workNanoseconds: UInt64(handlerTime * 1e9)), lifetime: lifetime,
                end: end, random: SplitMix64(seed: seed, stream: 0x5EC1_9E27, UInt64(index)))
            for slot in 0..<count {
                group.slots.append(group.makeMember(office: office))
                if let lifetime {
                    // Staggered, so that a group's recipients do not all end at once.
                    let time = lifetime * (Double(slot) + group.random.nextUnit()) / Double(count)
                    ends.insert(LifeEndQueue.Entry(time: time, group: index, slot: slot))
                }
            }
            groups.append(group)
        }
    }

    /// Ends the lives due by `elapsed`, in order of time (then group, then slot), and starts their successors; at
    /// most ``maxEndsPerAdvance`` of them, and none once `stopping` says so, the rest being left for the next call.
    mutating func advance(to elapsed: Double, stopping: () -> Bool) {
        for _ in 0..<Self.maxEndsPerAdvance {
            guard !stopping(), let due = ends.first, due.time <= elapsed, let entry = ends.removeFirst() else {
                return
            }
            if let next = groups[entry.group].endLife(slot: entry.slot, at: entry.time, office: office) {
                ends.insert(LifeEndQueue.Entry(time: next, group: entry.group, slot: entry.slot))
            }
        }
    }

    /// How many registrations the groups hold, dead weak references of released objects not counted.
    var registrationCount: Int { groups.reduce(0) { $0 + $1.registrations } }

    /// Unregisters every registration the groups hold and lets go of every object.
    mutating func removeAll() {
        for group in groups {
            for member in group.slots + group.kept {
                for id in member.ids { office.unregister(id) }
                member.scope?.end()
            }
        }
        groups.removeAll()
    }
}
