#if !PONY_FUZZING
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Without libFuzzer (a plain `swift build`), the target replays input files through the same check, so that a
    /// crash the fuzzer found can be reproduced in a debug build: `swift run PonyWireFuzz crash-<hash>`.
    @main
    enum InputReplayer {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--write-seeds", arguments.count == 2 {
                writeSeeds(into: arguments[1])
                return
            }
            let paths = arguments
            guard !paths.isEmpty else {
                printError("usage: PonyWireFuzz FILE...  (replays inputs through the wire decoder's checks)")
                exit(2)
            }
            for path in paths {
                guard let bytes = read(path) else {
                    printError("PonyWireFuzz: cannot read '\(path)'; expected a readable file")
                    exit(2)
                }
                let outcome = WireDecoderProbe.check(bytes)
                print("\(path): \(outcome)")
            }
        }

        private static func writeSeeds(into directory: String) {
            do {
                for (name, bytes) in try SeedCorpus.inputs() {
                    guard let file = fopen(directory + "/" + name, "wb") else {
                        printError("PonyWireFuzz: cannot write '\(directory)/\(name)'")
                        exit(2)
                    }
                    fwrite(bytes, 1, bytes.count, file)
                    fclose(file)
                }
            } catch {
                printError("PonyWireFuzz: \(error)")
                exit(2)
            }
        }

        private static func printError(_ line: String) {
            var text = line + "\n"
            text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }

        private static func read(_ path: String) -> [UInt8]? {
            guard let file = fopen(path, "rb") else { return nil }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                bytes.append(contentsOf: buffer[0..<count])
                if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
            }
        }
    }
#endif
