import Conformance
import Foundation
import Vectors

/// `conformance serve-http <pairing|identity|broken> [--port P] [--mutant NAME] [--kind KIND]`: a
/// reference service over HTTP/1.1 on loopback, with its test hooks (SPEC.md §13).
enum ServeHTTPCommand {
    static let help = """
    OVERVIEW: Serve a reference HTTP service on 127.0.0.1, with the test hooks of
              SPEC.md §13.1, until killed.

    USAGE: conformance serve-http pairing  [--port P] [--mutant NAME]
           conformance serve-http identity [--port P] [--mutant NAME]
           conformance serve-http broken --kind KIND [--port P]

    SERVICES:
      pairing             TOFU pairing (seed 004): GET /hello, POST /pair, GET /status.
      identity            Device revocation (seed 001): register, siblings, remove,
                          revoke-all, the public self-status and pubkeys lookup.
      broken              Answers every request wrongly, to show the runner survives it.

    OPTIONS:
      --port P            The port (default: $PORT, else a free port). The URL is printed
                          on stderr once the service accepts connections.
      --mutant NAME       Switch one realistic bug on (pairing.* for pairing, revocation.*
                          for identity; see 'conformance mutants'); a scenario must fail.
      --kind KIND         For broken: garbage, close, hang, huge-length, huge-chunked,
                          bad-chunk, truncated.
      -h, --help          Show help.
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.isEmpty || args.contains("-h") || args.contains("--help") { print(help); return args.isEmpty ? 2 : 0 }
        let name = args.removeFirst()
        func value(_ flag: String) -> Result<String?, UsageFailure> {
            guard let i = args.firstIndex(of: flag) else { return .success(nil) }
            guard i + 1 < args.count else { return .failure(UsageFailure(message: "\(flag) needs a value")) }
            let v = args[i + 1]
            args.removeSubrange(i...(i + 1))
            return .success(v)
        }
        let portText: String?, mutantName: String?, kindName: String?
        switch (value("--port"), value("--mutant"), value("--kind")) {
        case (.success(let p), .success(let m), .success(let k)): portText = p; mutantName = m; kindName = k
        case (.failure(let e), _, _), (_, .failure(let e), _), (_, _, .failure(let e)): return CLI.fail(e.message)
        }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        let portSource = portText ?? ProcessInfo.processInfo.environment["PORT"]
        var port: UInt16 = 0
        if let t = portSource {
            guard let p = UInt16(t) else { return CLI.fail("port \(t) is not a number 0…65535") }
            port = p
        }
        var mutant: Mutant?
        if let m = mutantName {
            guard let found = Mutant(rawValue: m) else { return CLI.fail("no mutant \(m) (see 'conformance mutants')") }
            mutant = found
        }
        let behaviour: HTTPServer.Behaviour
        switch name {
        case "pairing", "identity":
            let format = name == "pairing" ? "pairing" : "revocation"
            if let m = mutant, m.format != format { return CLI.fail("mutant \(m.rawValue) is not a \(name) mutant (\(format).*)") }
            guard kindName == nil else { return CLI.fail("--kind is for the broken service") }
            behaviour = .service(name == "pairing" ? PairingService(mutant: mutant) : IdentityService(mutant: mutant))
        case "broken":
            guard mutant == nil else { return CLI.fail("--mutant is for pairing and identity") }
            guard let k = kindName, let kind = HTTPServer.BrokenKind(rawValue: k) else {
                return CLI.fail("broken needs --kind, one of \(HTTPServer.BrokenKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            behaviour = .broken(kind)
        default:
            return CLI.fail("no service \(name): pairing, identity or broken")
        }
        let server = HTTPServer(behaviour)
        do { try server.start(port: port) } catch { return CLI.fail("cannot listen: \(error)", code: 3) }
        let what = mutant.map { " with mutant \($0.rawValue)" } ?? (kindName.map { " (\($0))" } ?? "")
        FileHandle.standardError.write(Data("serve-http: \(name)\(what) on http://127.0.0.1:\(server.port) (test hooks enabled)\n".utf8))
        server.wait()
    }

    struct UsageFailure: Error { let message: String }
}
