extension PostOffice {
    /// Runs `body` in a new scope named `name`, and ends the scope when `body` returns or throws: registrations
    /// made inside, in child tasks too, must be gone within `grace` after that, or the taps hear that they outlived
    /// it (see ``MailScope``).
    ///
    /// ```swift
    /// try await office.scope("GET /rooms/:room/events") {
    ///     let id = office.register { (message: RoomMessage) in stream.send(message) }
    ///     defer { office.unregister(id) }
    ///     try await serve()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The unit of work: a route, a job's kind. Findings gather scopes by name, so name kinds of work, not
    ///     instances (`GET /rooms/:room`, not `GET /rooms/42`).
    ///   - grace: How long its registrations may live on after it ends; zero means they must be gone when it ends.
    ///     At most ``MailScope/maximumGrace``.
    ///   - isolation: The caller's actor, where `body` runs; leave the default.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    @discardableResult
    public func scope<T>(
        _ name: String, grace: Duration = MailScope.defaultGrace, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        let scope = MailScope(name: name, grace: grace)
        defer { scope.end() }
        return try await scope.run(isolation: isolation, body)
    }

    /// Runs `body` in a new scope named `name`, and ends the scope when `body` returns or throws: the synchronous
    /// form of ``scope(_:grace:isolation:_:)``.
    ///
    /// - Parameters:
    ///   - name: The unit of work.
    ///   - grace: How long its registrations may live on after it ends.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    @discardableResult
    public func scope<T>(_ name: String, grace: Duration = MailScope.defaultGrace, _ body: () throws -> T) rethrows -> T
    {
        let scope = MailScope(name: name, grace: grace)
        defer { scope.end() }
        return try scope.run(body)
    }

    /// Opens a scope to end by hand, for work whose start and end are not one call: a screen, a session. Make its
    /// registrations inside ``MailScope/run(_:)``, and call ``MailScope/end()`` when the work is over.
    ///
    /// - Parameters:
    ///   - name: The unit of work.
    ///   - grace: How long its registrations may live on after it ends.
    /// - Returns: The open scope.
    public func openScope(_ name: String, grace: Duration = MailScope.defaultGrace) -> MailScope {
        MailScope(name: name, grace: grace)
    }

    /// The ids among `ids` that are no longer registered.
    func unregistered(among ids: [RecipientId]) -> Set<RecipientId> {
        state.withLock { state in Set(ids.filter { state.registrations[$0] == nil }) }
    }

    /// Checks the registrations this post office made in `scope` once its grace period passed: prunes those whose
    /// weakly held object or exact sender died, and tells the taps which are still registered.
    func check(_ made: MailScope.OfficeEntries, of scope: MailScope, endedAt: Nanoseconds) {
        var released: [(id: RecipientId, reason: Prune.Reason)] = []
        let (alive, taps) = state.withLock { state -> ([Registration], TapList?) in
            var alive: [Registration] = []
            for entry in made.entries {
                guard let registration = state.registrations[entry.id] else { continue }
                if let reason = registration.releaseReason {
                    released.append((entry.id, reason))
                } else {
                    alive.append(registration)
                }
            }
            return (alive, state.taps)
        }
        if !released.isEmpty { prune(released, context: nil) }
        guard let taps else { return }
        let outlived = Set(alive.map(\.id))
        var counts: [MailScope.SiteKey: (entry: MailScope.Entry, made: Int, outlived: Int)] = [:]
        for (key, removed) in made.removed { counts[key] = (removed.entry, removed.count, 0) }
        for entry in made.entries {
            let key = MailScope.SiteKey(entry)
            counts[key, default: (entry, 0, 0)].made += 1
            if outlived.contains(entry.id) { counts[key]!.outlived += 1 }
        }
        // By file and line, so that a scope's sites read the same whatever order its compactions kept them in.
        let sites = counts.values.map { count in
            ScopeEnd.Site(
                mailType: TypeIdentity(count.entry.mailType),
                site: SourceLocation(count.entry.file, count.entry.line, filePath: count.entry.filePath),
                registrations: count.made, outlived: count.outlived)
        }.sorted { ($0.site.fileID, $0.site.line) < ($1.site.fileID, $1.site.line) }
        taps.emit(
            .scopeEnded(
                ScopeEnd(
                    scope: scope.info, openedAt: scope.openedAt, endedAt: endedAt, grace: scope.graceNanoseconds,
                    checkedAt: MonotonicClock.now(), sites: sites, outlived: alive.map(\.info))))
    }
}
