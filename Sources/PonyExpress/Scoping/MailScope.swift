import Dispatch
import Synchronization

/// A unit of work with a clear end (an HTTP request, a WebSocket session, a screen, a job) whose registrations
/// should end with it.
///
/// Registrations made while a scope is current belong to it, in child tasks too (it is a task-local); scopes nest,
/// and the innermost owns a registration. When the scope ends, and its grace period has passed, the post office
/// checks which of them are still registered: each one that is, is reported to the taps in a ``ScopeEnd``, where a
/// monitor judges it a leak at once, without waiting for a population to grow. Registrations whose weakly held object
/// died meanwhile are pruned by that check, reported like any other prune.
///
/// ```swift
/// // A request: registrations made inside must be gone within the grace period after it ends.
/// try await office.scope("GET /rooms/:room/events") {
///     let id = office.register { (message: RoomMessage) in stream.send(message) }
///     defer { office.unregister(id) }
///     try await serve()
/// }
///
/// // A screen, opened and closed by hand.
/// let scope = office.openScope("SettingsScreen", grace: .seconds(2))
/// scope.run { office.register(self, SettingsScreen.show) }
/// // ... later, when the screen goes away:
/// scope.end()
/// ```
///
/// A registration meant to outlive its scope says so with ``RegistrationOptions/outlivesScope`` and belongs to no
/// scope. A registration made after its scope ended (by an unstructured task that outlived it) belongs to none either:
/// the monitor's other rules judge it, as they judge every registration made outside a scope.
///
/// ## Cost
/// Every registration reads the task-local (a few nanoseconds); one inside a scope adds an entry to the scope (an
/// id, its mail type and site) under the scope's own lock. A scope remembers its registrations until it ends, and
/// forgets those already removed whenever its list doubles, so it holds at most about twice the registrations that
/// are still alive. Posting costs nothing more. Ending a scope with registrations queues its check, which one timer
/// for all scopes runs after the grace period and at most 10 ms later (at once, on the ending thread, for a grace of
/// zero); a scope that made no registration has nothing to check. `ponybench scope-cost` measures each.
public final class MailScope: Sendable {
    /// The scope registrations made now belong to: the innermost scope of the current task, or of the current
    /// thread outside tasks; `nil` outside any scope.
    public static var current: MailScope? { innermost }

    @TaskLocal static var innermost: MailScope?

    /// The default grace period: how long registrations may outlive their scope before they count as leaked.
    public static let defaultGrace: Duration = .seconds(1)

    /// The longest grace period a scope takes.
    public static let maximumGrace: Duration = .seconds(3_600)

    /// The scope's name: a route, a screen, a job's kind. Findings gather scopes by name.
    public let name: String
    /// A number no other scope of this process has.
    public let id: UInt64
    /// How long its registrations may live on after it ends.
    public let grace: Duration
    /// When it was opened, on the clock of tap events.
    public let openedAt: Nanoseconds

    private let state = Locked(State())
    private static let nextId = Atomic<UInt64>(1)

    /// What a scope remembers of one registration it owns: enough to report its site after it was removed.
    /// Sendable: a metatype and literals, never changed once the id is set.
    struct Entry: @unchecked Sendable {
        /// Set once the post office gave the registration its id.
        var id = RecipientId(rawValue: 0)
        let mailType: any Any.Type
        let file: StaticString
        let filePath: StaticString
        let line: UInt

        init(_ registration: Registration) {
            mailType = registration.mailType
            file = registration.file
            filePath = registration.filePath
            line = registration.line
        }
    }

    /// The registrations one post office made in the scope.
    struct OfficeEntries: Sendable {
        weak var office: PostOffice?
        var entries: [Entry] = []
        /// Registrations removed before the scope ended, forgotten by a compaction: how many per site.
        var removed: [SiteKey: (entry: Entry, count: Int)] = [:]
    }

    /// A site within the scope: its mail type and source line.
    /// Sendable: the file is the address of a string literal, which lives as long as the process.
    struct SiteKey: Hashable, @unchecked Sendable {
        let mailType: ObjectIdentifier
        let file: UnsafeRawPointer
        let line: UInt

        init(_ entry: Entry) {
            mailType = ObjectIdentifier(entry.mailType)
            file = UnsafeRawPointer(entry.filePath.utf8Start)
            line = entry.line
        }
    }

    struct State {
        var offices: [ObjectIdentifier: OfficeEntries] = [:]
        var count = 0
        var compactAt = 64
        var endedAt: Nanoseconds?
    }

    init(name: String, grace: Duration) {
        precondition(
            grace >= .zero && grace <= Self.maximumGrace,
            "a scope's grace period must be between zero and \(Self.maximumGrace), not \(grace)")
        self.name = name
        self.grace = grace
        id = Self.nextId.wrappingAdd(1, ordering: .relaxed).oldValue
        openedAt = MonotonicClock.now()
    }

    /// Whether the scope has not ended yet.
    public var isOpen: Bool { !hasEnded.load(ordering: .acquiring) }

    /// Set when the scope ends: what a registration checks before it joins the scope, without the scope's lock.
    private let hasEnded = Atomic<Bool>(false)

    /// ``grace`` in nanoseconds.
    var graceNanoseconds: Nanoseconds {
        let (seconds, attoseconds) = grace.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// How many registrations the scope remembers: those made in it, less those a compaction found removed.
    package var rememberedRegistrations: Int { state.withLock { $0.count } }

    /// The scope as taps and ``RecipientInfo/scope`` describe it.
    public var info: ScopeInfo { ScopeInfo(name: name, id: id) }

    /// Runs `body` with this scope current: registrations made inside belong to it.
    ///
    /// - Parameter body: The work.
    /// - Returns: What `body` returns.
    @discardableResult
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$innermost.withValue(self, operation: body)
    }

    /// Runs `body` with this scope current, in its child tasks too: registrations made inside belong to it.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, where `body` runs; leave the default.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    @discardableResult
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await Self.$innermost.withValue(self, operation: body, isolation: isolation)
    }

    /// Ends the scope: after its grace period, the registrations made in it that are still registered are reported
    /// to the taps of their post office as outliving it (``TapEvent/scopeEnded(_:)``). Calling it again does nothing.
    public func end() {
        let now = MonotonicClock.now()
        let offices = state.withLock { state -> [OfficeEntries]? in
            guard state.endedAt == nil else { return nil }
            state.endedAt = now
            hasEnded.store(true, ordering: .releasing)
            defer { state.offices = [:] }
            return Array(state.offices.values)
        }
        guard let offices, !offices.isEmpty else { return }
        let check: @Sendable () -> Void = { [self] in
            for entries in offices { entries.office?.check(entries, of: self, endedAt: now) }
        }
        if grace == .zero {
            check()
        } else {
            ScopeChecks.schedule(after: graceNanoseconds, check)
        }
    }

    /// Takes a new registration of `office` into the scope; nothing once the scope has ended (the registration then
    /// belongs to none, as one made after the end does).
    func adopt(_ entry: Entry, office: PostOffice) {
        let key = ObjectIdentifier(office)
        let compacting = state.withLock { state -> Bool? in
            guard state.endedAt == nil else { return nil }
            state.offices[key, default: OfficeEntries(office: office)].entries.append(entry)
            state.count += 1
            return state.count >= state.compactAt
        }
        if compacting == true { compact() }
    }

    /// Forgets the registrations already removed, counting them by site, so that a scope that lives long and
    /// registers often holds at most about twice its live registrations.
    private func compact() {
        let lists = state.withLock { state in state.offices.map { ($0.key, $0.value.office, $0.value.entries) } }
        var gone: [ObjectIdentifier: Set<RecipientId>] = [:]
        for (key, office, entries) in lists {
            guard let office else { continue }
            gone[key] = office.unregistered(among: entries.map(\.id))
        }
        state.withLock { state in
            guard state.endedAt == nil else { return }
            var count = 0
            for key in Array(state.offices.keys) {
                let goneIds = gone[key] ?? []
                var entries = state.offices[key]!
                if !goneIds.isEmpty {
                    var kept: [Entry] = []
                    kept.reserveCapacity(entries.entries.count - goneIds.count)
                    for entry in entries.entries {
                        if goneIds.contains(entry.id) {
                            entries.removed[SiteKey(entry), default: (entry, 0)].count += 1
                        } else {
                            kept.append(entry)
                        }
                    }
                    entries.entries = kept
                    state.offices[key] = entries
                }
                count += entries.entries.count
            }
            state.count = count
            state.compactAt = Swift.max(64, 2 * count)
        }
    }
}
