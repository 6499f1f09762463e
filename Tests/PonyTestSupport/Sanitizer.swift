import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sanitizer this test process was built with (`swift test --sanitize=...`), found by looking up its runtime's
/// entry point, so that a test says for itself where its premise does not hold.
package enum Sanitizer: Sendable {
    case address
    case thread

    /// The sanitizer's name, as its reports give it.
    package var name: String {
        switch self {
        case .address: "AddressSanitizer"
        case .thread: "ThreadSanitizer"
        }
    }

    /// The sanitizer in this process, or `nil` for a plain build.
    package static let active: Sanitizer? = {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        if dlsym(process, "__tsan_init") != nil { return .thread }
        if dlsym(process, "__asan_init") != nil { return .address }
        return nil
    }()
}

extension Tag {
    /// Threads against shared state: `.ci/run` runs every suite with this tag under ThreadSanitizer. A new
    /// concurrency suite joins that pass by carrying the tag.
    @Tag package static var concurrency: Self
}

extension Trait where Self == ConditionTrait {
    /// Skips the test in a build with `sanitizer`, for a reason the sanitizer itself causes (its slowdown breaks a
    /// time bound, its allocator or signal handling changes what the test observes). The plain pass still runs it.
    ///
    /// ```swift
    /// @Test(.skipped(under: .thread, .address, because: "the sanitizers' slowdown breaks the 1 s bound"))
    /// ```
    ///
    /// The skip's comment starts with "by design under", which is how `.ci/run` tells these skips, which it lists, from
    /// a test that switched itself off for a missing tool, which fails the run.
    ///
    /// - Parameters:
    ///   - sanitizers: The sanitizers that break the test's premise.
    ///   - reason: Why, in a few words.
    package static func skipped(under sanitizers: Sanitizer..., because reason: Comment) -> Self {
        let names = sanitizers.map(\.name).joined(separator: " and ")
        return .disabled(
            if: Sanitizer.active.map(sanitizers.contains) ?? false,
            Comment(rawValue: "by design under \(names): \(reason.rawValue)"))
    }

    /// Skips an exit test under ThreadSanitizer. Once, two exit tests at once left the parent waiting without end for
    /// their children's pipes, the children gone; an exit test checks a trap, not a race, and the plain and
    /// AddressSanitizer passes run it.
    package static var exitTestOutsideThreadSanitizer: Self {
        skipped(
            under: .thread,
            because:
                "an exit test; under ThreadSanitizer two at once once waited without end for their children's pipes")
    }
}
