import PonyExpress
import PonyTestSupport
import Testing

// The VerifiedMail example of the PonyExpress documentation's overview, held verbatim (DocumentedCodeTests).

// Example begin
final class Downloader {}

struct DownloadFinished: VerifiedMail {
    typealias RequiredSender = Downloader
    var bytes: Int
}

// Example end

@Suite("The documentation's VerifiedMail example")
struct VerifiedMailExampleTests {
    @Test("a verified post reaches the block with its required sender")
    func example() {
        let printed = Tally<String>()
        @Sendable func print(_ items: Any...) { printed.add(items.map { "\($0)" }.joined(separator: " ")) }
        // Example begin
        let downloader = Downloader()
        PostOffice.default.register { (mail: DownloadFinished, sender: Downloader) in
            print("\(mail.bytes) bytes")
        }
        PostOffice.default.post(DownloadFinished(bytes: 512), sender: downloader)
        // Example end
        #expect(printed.all == ["512 bytes"])
    }
}
