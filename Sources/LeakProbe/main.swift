import PonyExpress

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Proves that the leak check of CI sees the leak users most often write: a block registered on a post office that
// captures that same post office strongly. The post office keeps the block until it is unregistered, the block
// keeps the post office, and neither is ever freed. Run under AddressSanitizer:
//
//     leakprobe strong   must be reported by LeakSanitizer (non-zero exit status)
//     leakprobe weak     the `[weak office]` form, must be clean (exit status 0)

private struct Ping: Mail {}
private struct Pong: Mail {}

/// Builds a post office whose block re-posts on it, drops every reference to it, and returns.
private func registerAndForget(weakly: Bool) {
    let office = PostOffice()
    if weakly {
        office.register { [weak office] (_: Ping) in office?.post(Pong()) }
    } else {
        office.register { (_: Ping) in office.post(Pong()) }
    }
    office.post(Ping())
}

let usage = "usage: leakprobe strong|weak"
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let mode = arguments.first, ["strong", "weak"].contains(mode) else {
    let found = arguments.isEmpty ? "nothing" : "'\(arguments.joined(separator: " "))'"
    var message = "leakprobe: expected 'strong' or 'weak', found \(found)\n\(usage)\n"
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}
for _ in 0..<10 { registerAndForget(weakly: mode == "weak") }
print("leakprobe: registered 10 post offices \(mode == "weak" ? "with [weak office]" : "captured strongly")")
