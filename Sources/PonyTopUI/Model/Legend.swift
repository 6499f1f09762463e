import PonyExpressMonitor

/// What the words, columns and markers on screen mean: the help screen's legend, and the one place that says so.
package enum Legend {
    /// Column headings and markers, with their meaning.
    package static let terms: [(term: String, meaning: String)] = [
        (
            "RECIPIENTS",
            "live registrations (an object and method, or a block) that receive the mail; in the mail "
                + "types table this includes recipients registered for a superclass"
        ),
        ("POSTS/S, DELIVERIES/S", "posts and handler runs per second over the last second"),
        (
            "PRUNED",
            "registrations removed because their object (or exact sender) was released without unregistering, "
                + "since the start or the last reset"
        ),
        (
            "RECENT",
            "in the Pruned pane: how many of the recent prunes the monitor keeps came from the row's site; the "
                + "pane's \"in all\" and the header count every prune"
        ),
        ("P50, P99", "handler run time: half, and 99 in 100, of the runs were this quick"),
        (
            "WAIT P99",
            "99 in 100 queued deliveries waited at most this long from post to handler start; - means "
                + "synchronous or no data. Beside a site: its queue's, over all the mail that queue runs"
        ),
        (
            "SITE",
            "where register was called, Module/File.swift:line; shortened from the module side; under an expanded "
                + "site, each registration's id (#12)"
        ),
        ("RECIPIENT", "the recipient object's type, or block; \"via T\": registered for superclass T"),
        ("QUEUE", "the queue handlers run on; sync: on the posting thread"),
        ("SENDER", "the sender filter: any; T (a T); T? (no sender or a T); =T (one exact T instance)"),
        (
            "+10S, +1M",
            "how many more live registrations the site has than 10 seconds and 1 minute ago (in the first "
                + "minute: than when the monitor started watching it)"
        ),
        ("OLDEST", "age of the site's oldest live registration"),
        (
            "DUP",
            "the same object registered more than once for one mail type: every post is handled twice; DUP×3 on a "
                + "site: three such registrations there. The recipient's name is cut before this marker is"
        ),
        ("LIVED", "how long pruned registrations lived (the median of a group)"),
        ("LAST", "how long ago the newest prune of a group happened"),
        ("BACKLOG", "mail posted to a queue and not yet handled (estimated)"),
        (
            "once, replay, over limit",
            "a registration's markers in its details: delivered once, then unregistered; given the type's kept "
                + "mail when made (N replays: how often); made past the type's recipient limit"
        ),
        (
            "verified",
            "a registration's marker: its mail type is VerifiedMail, posted only by the sender type the title names"
        ),
        (
            "scope NAME",
            "a registration made in a scope (a request, a screen); on a site, 3/150 leaked: of the 150 scopes of that "
                + "name that ended, 3 left a registration here alive (details: every name)"
        ),
        (
            "bridged",
            "a double arrow (<> in ASCII) after a mail type: a NotificationCenter bridge posts it, made from "
                + "notifications the app still posts the old way"
        ),
    ]

    /// What each category of finding means.
    package static func meaning(ofCategory category: Finding.Category) -> String {
        switch category {
        case .leak: "recipients that pile up"
        case .oversubscription: "too many recipients for one mail type, or the same one twice"
        case .slow: "handlers or queues that hold delivery up"
        case .churn:
            "registrations that come and go fast, such as weak recipients that die without unregistering: correct use, never a leak"
        }
    }

    /// Whether a category is a problem (drawn as critical) rather than a slowdown or a note.
    package static func isProblem(category: Finding.Category) -> Bool {
        category == .leak || category == .oversubscription
    }

    /// What a kind of finding means, in a line: the summary its rule gives.
    package static func meaning(ofKind kind: Finding.Kind) -> String {
        FindingRules.rule(for: kind)?.summary
            ?? "see the finding's explanation and evidence (d)"
    }
}
