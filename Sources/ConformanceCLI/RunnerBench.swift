import Conformance
import Foundation

/// `conformance bench runner`: a full run against `conformance serve` beside a run against an echo
/// testee (`serve --echo`, which answers every case "unsupported" at once: the same number of
/// round trips with no work behind them). The runner's own work is the wall time outside round
/// trips and spawning; the target is at most half the cost of the raw round trips.
enum RunnerBench {
    static func run(vectors: URL, repeatCount: Int) -> Int32 {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let suite: [SuiteCase]
        do { suite = try SuiteLoader.load(directory: vectors) } catch { return CLI.fail("cannot load vectors: \(error)") }
        func best(_ command: [String]) -> RunResult? {
            var best: RunResult?
            for _ in 0..<max(1, repeatCount) {
                guard let r = try? Runner.run(suite: suite, options: RunOptions(command: command)) else { return nil }
                if best == nil || r.wallNanos < best!.wallNanos { best = r }
            }
            return best
        }
        guard let full = best([exe, "serve"]), let echo = best([exe, "serve", "--echo"]) else {
            return CLI.fail("the testee could not be run", code: 3)
        }
        func ms(_ n: UInt64) -> String { String(format: "%.1f ms", Double(n) / 1e6) }
        let own = full.wallNanos &- full.roundTripNanos &- full.spawnNanos
        let echoTrips = echo.roundTripNanos
        print("== runner over \(suite.count) cases, best of \(repeatCount)")
        print("full run vs conformance serve: wall \(ms(full.wallNanos)) (round trips \(ms(full.roundTripNanos)), spawn+hello \(ms(full.spawnNanos)), runner's own work \(ms(own))); \(full.summaryLine)")
        print("echo testee (serve --echo):    wall \(ms(echo.wallNanos)) (round trips \(ms(echoTrips)), spawn+hello \(ms(echo.spawnNanos)))")
        print(String(format: "wall ratio full/echo: %.2f", Double(full.wallNanos) / Double(max(1, echo.wallNanos))))
        print(String(format: "runner's own work / raw round trips: %.2f (target <= 0.50)", Double(own) / Double(max(1, echoTrips))))
        return 0
    }
}
