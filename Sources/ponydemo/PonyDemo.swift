import ArgumentParser
import CoreMetrics
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressMetrics
import PonyExpressMonitor
import PonyExpressRelay
import PonyScenarios
import Prometheus

/// `ponydemo`: an app in its own process that runs a scenario on `PostOffice.default` with the agent started, for
/// `ponytop --attach` to watch.
@main
struct PonyDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ponydemo",
        abstract: "A demo app: runs a load scenario with the ponytop agent started, until stopped.",
        discussion: """
            In another terminal: ponytop --list, then ponytop --attach PID. Stop the demo with Ctrl-C.
            Beside the scenario, a legacy part of the app posts AppThemeChanged to NotificationCenter once a second;
            a bridge relays it as ThemeChanged mail, marked as bridged in ponytop.
            """,
        version: "ponydemo \(MonitorAgent.libraryVersion)")

    @Option(help: "A built-in scenario's name or a scenario file.")
    var scenario = "app"

    @Option(
        help: "Multiply the scenario's posting rates by this factor (greater than 0).",
        transform: { argument in
            guard let rate = Double(argument), rate.isFinite, rate > 0, rate <= ScenarioRunner.rateRange.upperBound
            else { throw ValidationError("expected a number greater than 0, at most 1000000") }
            return rate
        })
    var rate: Double = 1

    @Option(help: "The seed of the scenario's random choices.")
    var seed: UInt64 = 1

    @Option(
        help: "Exit after this many seconds (default: run until Ctrl-C or SIGTERM).",
        transform: { argument in
            guard let seconds = Double(argument), seconds.isFinite, seconds > 0 else {
                throw ValidationError("expected seconds greater than 0")
            }
            return seconds
        })
    var duration: Double?

    @Option(
        name: .customLong("metrics"),
        help: ArgumentHelp(
            "Serve Prometheus text on GET /metrics at PORT or :PORT (127.0.0.1) or a loopback HOST:PORT. No authentication.",
            valueName: "address"),
        transform: MetricsAddress.parse)
    var metrics: MetricsAddress?

    func validate() throws {
        // Checked here, not in the option's transform: the argument parser's message for a refused value repeats
        // the value, password and all, on stderr (a log under systemd). The configuration's errors never do.
        if let relay {
            do {
                _ = try RelayConfiguration(url: relay, channel: "ponydemo")
                if !relayUnauthenticated { _ = try RelayKey.fromEnvironment() }
            } catch {
                throw ValidationError("--relay: \(error)")
            }
        }
        if let metrics, !metrics.isLoopback {
            throw ValidationError(
                "--metrics: \(metrics.host) is not loopback, and the endpoint has no authentication or encryption: "
                    + "use PORT or 127.0.0.1:PORT, and scrape it from this machine or through an SSH tunnel")
        }
    }

    @Option(
        name: .customLong("relay"),
        help: ArgumentHelp(
            "Share the demo's struct mail types with other ponydemo processes through PostgreSQL (channel ponydemo).",
            discussion:
                "Leave the password out of the URL, so that the process list does not show it: it is then read from "
                + "PGPASSWORD, or from PGPASSFILE or ~/.pgpass, as libpq reads them. The fleet's key (32 bytes or "
                + "more, base64: openssl rand -base64 32) is read from PONYEXPRESS_RELAY_KEY, or from the file named "
                + "by PONYEXPRESS_RELAY_KEY_FILE (chmod 600).",
            valueName: "postgres://USER[:PASSWORD]@HOST:PORT/DATABASE[?sslmode=MODE]"))
    var relay: String?

    @Flag(
        name: .customLong("relay-unauthenticated"),
        help: "Relay without a key: whatever anyone who can connect to the database sends on the channel is posted.")
    var relayUnauthenticated = false

    @OptionGroup(title: "Agent")
    var agentOptions: AgentOptions

    func run() throws {
        let chosen: Scenario
        do {
            chosen = try Scenario.resolve(scenario)
        } catch {
            Self.fail("--scenario: \(error.description)")
        }
        let tcp = try agentOptions.listener()
        // Block the stop signals before any thread starts, so that every thread inherits the mask and this one
        // takes them with sigtimedwait.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

        // The metrics endpoint binds first, so that a port in use ends the demo before anything else starts.
        let registry = PrometheusCollectorRegistry()
        let endpoint: MetricsEndpoint?
        do {
            endpoint = try metrics.map { try MetricsEndpoint.start(at: $0, serving: registry) }
        } catch {
            Self.fail("--metrics: cannot listen on \(metrics?.host ?? ""):\(metrics?.port ?? 0): \(error)")
        }

        let office = PostOffice.default
        let agent: MonitorAgent
        do {
            agent = try MonitorAgent.start(watching: office, settings: agentOptions.settings(), tcp: tcp)
        } catch {
            Self.fail("\(error)")
        }
        var publisher: MetricsPublisher?
        if endpoint != nil {
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            publisher = MetricsPublisher(monitor: agent.monitor)
            publisher?.start(every: .seconds(1))
        }
        let relayed = relay.map { startRelay(office: office, url: $0, monitor: agent.monitor) }
        let runner = ScenarioRunner(scenario: chosen, office: office, rate: rate, seed: seed)
        runner.start()
        let legacy = LegacyThemeNotifications(office: office)
        var banner = "ponydemo: pid \(getpid()) runs scenario \(chosen.name); agent at \(agent.socketPath)"
        if let port = agent.tcpPort { banner += " and \(tcp?.host ?? "127.0.0.1"):\(port)" }
        if let endpoint, let metrics { banner += "; metrics at http://\(metrics.urlHost):\(endpoint.port)/metrics" }
        if let relayed { banner += "; relay through \(relayed.configuration)" }
        var text = banner + "\nattach with: ponytop --attach \(getpid())\n"
        text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }

        let deadline = duration.map { MonotonicClock.now() + UInt64($0 * 1e9) }
        while true {
            var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            if sigtimedwait(&stopSignals, nil, &wait) > 0 { break }
            if let deadline, MonotonicClock.now() >= deadline { break }
        }
        publisher?.stop()
        endpoint?.stop()
        agent.stop()
        legacy.stop()
        runner.stop()
        relayed?.stop()
    }

    /// Starts the relay and shares the demo's struct and enum mail types; the monitor reads its figures.
    private func startRelay(office: PostOffice, url: String, monitor: PostOfficeMonitor) -> PostgresRelay {
        do {
            var configuration = try RelayConfiguration(url: url, channel: "ponydemo")
            configuration.authentication =
                relayUnauthenticated ? .unauthenticated : .key(try RelayKey.fromEnvironment())
            let relay = try PostgresRelay.start(office: office, configuration: configuration)
            try relay.share(CartUpdated.self)
            try relay.share(DownloadProgress.self)
            try relay.share(LoginEvent.self)
            try relay.share(LogoutEvent.self)
            try relay.share(Reachability.self)
            monitor.watch(relay)
            return relay
        } catch {
            Self.fail("--relay: \(error)")
        }
    }

    /// Prints a one-line error and exits with status 2.
    static func fail(_ message: String) -> Never {
        var line = "ponydemo: \(message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        Glibc.exit(2)
    }
}
