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
    }

    /// One group's state.
    struct Group {
        let spec: ScenarioRecipients
        let entries: [MailEntry]
        let queue: DispatchQueue?
        let sender: SenderRule
        let inbox: Inbox
        let lifetime: Double?
        var slots: [Member]
        /// When each slot's recipient's life ends; `.infinity` once the group has reached its limit.
        var endsAt: [Double]
        /// Recipients kept by `leak`: alive and registered, never unregistered.
        var kept: [Member] = []
        var registrations = 0
        var random: SplitMix64
    }

    static let maxCount = 1_000
    static let maxLimit = 100_000
    static let minLifetime = 0.01

    private(set) var groups: [Group] = []
    let office: PostOffice

    /// Makes the groups and registers every group's first recipients, in group order.
    init(
        scenario: Scenario, office: PostOffice, seed: UInt64, queues: [ScenarioQueue: DispatchQueue],
        senders: [ScenarioSenderType: [any DemoSender]]
    ) {
        self.office = office
        for (index, spec) in scenario.recipients.enumerated() {
            let sender: SenderRule =
                switch spec.sender {
                case .any: .any
                case .optional(let type): .optional(type.type)
                case .required(let type): .required(type.type)
                case .exact(let type): senders[type].flatMap(\.first).map { .exact($0) } ?? .required(type.type)
                }
            let count = Swift.min(Swift.max(spec.count, 0), RecipientPopulation.maxCount)
            let lifetime = spec.lifetime.flatMap { $0.isFinite && $0 > 0 ? Swift.max($0, Self.minLifetime) : nil }
            var random = SplitMix64(seed: seed, stream: 0x5EC1_9E27, UInt64(index))
            var endsAt: [Double] = []
            for slot in 0..<count {
                guard let lifetime else {
                    endsAt.append(.infinity)
                    continue
                }
                // Staggered, so that a group's recipients do not all end at once.
                endsAt.append(lifetime * (Double(slot) + random.nextUnit()) / Double(count))
            }
            let handlerTime = spec.handlerTime.isFinite ? Swift.min(Swift.max(spec.handlerTime, 0), 0.1) : 0
            var group = Group(
                spec: spec, entries: spec.mail.map(\.entry), queue: spec.queue == .none ? nil : queues[spec.queue],
                sender: sender, inbox: Inbox(workNanoseconds: UInt64(handlerTime * 1e9)), lifetime: lifetime,
                slots: [], endsAt: endsAt, random: random)
            for _ in 0..<count { group.slots.append(Self.makeMember(&group, office: office)) }
            groups.append(group)
        }
    }

    /// The recipient class, or `nil` for blocks, and whether objects may be released or re-registered.
    private static func makeMember(_ group: inout Group, office: PostOffice) -> Member {
        var member = Member(object: group.spec.kind.objectType.map { $0.init(inbox: group.inbox) }, ids: [])
        register(&member, in: &group, office: office)
        return member
    }

    private static func register(_ member: inout Member, in group: inout Group, office: PostOffice) {
        for entry in group.entries {
            let id =
                if let object = member.object {
                    entry.subscribe(object, office, group.queue, group.sender)
                } else {
                    entry.observe(group.inbox, office, group.queue, group.sender)
                }
            member.ids.append(id)
        }
        group.registrations += group.entries.count
    }

    /// Ends every life due by `elapsed`, in order of time (then group, then slot), and starts the replacements.
    mutating func advance(to elapsed: Double) {
        // Bounded, so that a stalled clock reading can never keep the lifecycle thread here for long.
        for _ in 0..<100_000 {
            var due: (time: Double, group: Int, slot: Int)?
            for (groupIndex, group) in groups.enumerated() {
                for (slot, time) in group.endsAt.enumerated() where time <= elapsed {
                    if let best = due, (best.time, best.group, best.slot) <= (time, groupIndex, slot) { continue }
                    due = (time, groupIndex, slot)
                }
            }
            guard let due else { return }
            endLife(group: due.group, slot: due.slot, at: due.time)
        }
    }

    private mutating func endLife(group index: Int, slot: Int, at time: Double) {
        var group = groups[index]
        defer { groups[index] = group }
        guard let lifetime = group.lifetime else {
            group.endsAt[slot] = .infinity
            return
        }
        var member = group.slots[slot]
        let perMember = group.entries.count
        // A block can be neither released (the post office holds it) nor registered again as the same object:
        // from code (the parser refuses both), a block that is to be released unregisters and one that is to
        // re-register leaks.
        let end: ScenarioRecipients.End =
            switch (group.spec.end, member.object == nil) {
            case (.release, true): .unregister
            case (.reregister, true): .leak
            case (let end, _): end
            }
        switch end {
        case .unregister:
            for id in member.ids { office.unregister(id) }
            group.registrations -= member.ids.count
            group.slots[slot] = Self.makeMember(&group, office: office)
        case .release:
            // Dropped without unregistering: the registrations stay behind for the post office to prune.
            group.registrations -= member.ids.count
            group.slots[slot] = Member(object: nil, ids: [])
            group.slots[slot] = Self.makeMember(&group, office: office)
        case .leak:
            guard group.registrations + perMember <= group.spec.limit else {
                group.endsAt[slot] = .infinity
                return
            }
            group.kept.append(member)
            group.slots[slot] = Self.makeMember(&group, office: office)
        case .reregister:
            guard group.registrations + perMember <= group.spec.limit else {
                group.endsAt[slot] = .infinity
                return
            }
            Self.register(&member, in: &group, office: office)
            group.slots[slot] = member
        }
        group.endsAt[slot] = time + lifetime * (0.75 + 0.5 * group.random.nextUnit())
    }

    /// How many registrations the groups hold, dead weak references of released objects not counted.
    var registrationCount: Int { groups.reduce(0) { $0 + $1.registrations } }

    /// Unregisters every registration the groups hold and lets go of every object.
    mutating func removeAll() {
        for group in groups {
            for member in group.slots + group.kept {
                for id in member.ids { office.unregister(id) }
            }
        }
        groups.removeAll()
    }
}
