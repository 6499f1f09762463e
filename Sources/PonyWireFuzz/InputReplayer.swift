#if !PONY_FUZZING
    import PonyFuzzInput

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
            InputReplay.run(arguments, tool: "PonyWireFuzz", checks: "the wire decoder's checks") {
                "\(WireDecoderProbe.check($0))"
            }
        }

        private static func writeSeeds(into directory: String) {
            do {
                for (name, bytes) in try SeedCorpus.inputs() {
                    guard let file = fopen(directory + "/" + name, "wb") else {
                        InputReplay.printError("PonyWireFuzz: cannot write '\(directory)/\(name)'")
                        exit(2)
                    }
                    fwrite(bytes, 1, bytes.count, file)
                    fclose(file)
                }
            } catch {
                InputReplay.printError("PonyWireFuzz: \(error)")
                exit(2)
            }
        }
    }
#endif
