/// The names of the metrics and labels that ``MetricsPublisher`` publishes, in Prometheus's conventions: a
/// `ponyexpress_` prefix, base units (seconds, bytes), `_total` on counters.
///
/// The article "Metrics" lists each one with its labels and meaning.
public enum MetricName {
    /// Counter: calls to `post`, by mail type.
    public static let posts = "ponyexpress_posts_total"
    /// Counter: handler runs, by mail type.
    public static let deliveries = "ponyexpress_deliveries_total"
    /// Counter: matched recipients that did not receive a post, by mail type.
    public static let skips = "ponyexpress_skips_total"
    /// Counter: registrations pruned because their object or exact sender was released, by mail type.
    public static let prunes = "ponyexpress_prunes_total"
    /// Gauge: live recipients registered for a mail type.
    public static let liveRecipients = "ponyexpress_live_recipients"
    /// Gauge: live registrations made at a registration site, for the sites with the most.
    public static let siteLiveRecipients = "ponyexpress_site_live_recipients"
    /// Gauge: handler duration percentiles in seconds, by mail type and quantile.
    public static let handlerSeconds = "ponyexpress_handler_seconds"
    /// Gauge: percentiles of the wait from post to the start of a queued delivery in seconds, by mail type and
    /// quantile.
    public static let queueWaitSeconds = "ponyexpress_queue_wait_seconds"
    /// Counter: shared mail sent to other processes by a relay, by mail type.
    public static let relaySent = "ponyexpress_relay_sent_total"
    /// Counter: shared mail received from other processes by a relay, by mail type.
    public static let relayReceived = "ponyexpress_relay_received_total"
    /// Counter: shared mail a relay did not send (not connected, outbox full, too large), by mail type.
    public static let relayDropped = "ponyexpress_relay_dropped_total"
    /// Gauge: lag from post in another process to arrival here, in seconds, by mail type and quantile (0.5, 0.99).
    public static let relayLagSeconds = "ponyexpress_relay_lag_seconds"
    /// Gauge: findings in the snapshot now, by kind.
    public static let findings = "ponyexpress_findings"
    /// Gauge: the monitor's own estimated memory in bytes.
    public static let monitorMemoryBytes = "ponyexpress_monitor_memory_bytes"

    /// Label: a mail type's name, such as `CartUpdated`.
    public static let mailTypeLabel = "mail_type"
    /// Label: a registration site, `File.swift:12` as `#fileID:#line`.
    public static let siteLabel = "site"
    /// Label: a quantile from 0 to 1; `1` is the largest duration recorded.
    public static let quantileLabel = "quantile"
    /// Label: a finding kind, such as `growingRegistrations`.
    public static let kindLabel = "kind"
    /// The value of ``siteLabel`` and ``mailTypeLabel`` for the sites beyond the publisher's site limit and the
    /// monitor's site capacity, summed.
    public static let otherSites = "other"
}
