import Conformance
import Foundation
import Primitives
import Vectors

/// `conformance fuzz-corpus`: the seed corpus and dictionary of every fuzz target (issue 27),
/// derived from the committed vectors (every input of every case of the target's ops), so they
/// are regenerated with the vectors and never edited by hand; and the replay of saved inputs
/// through a surface's check without the sanitized build (to reproduce a finding in a debugger
/// or a unit test).
enum FuzzCorpusCommand {
    static let help = """
    OVERVIEW: Write each fuzz target's seeds and libFuzzer dictionary from the vectors, list
              the targets, or replay inputs through a target's check.

    USAGE: conformance fuzz-corpus --out DIR [--vectors DIR] [--target NAME] [--max-seed-bytes N]
           conformance fuzz-corpus --list
           conformance fuzz-corpus --replay NAME FILE...

    OPTIONS:
      --out DIR            Writes DIR/<target>/<sha256 prefix> (one file per distinct seed) and
                           DIR/<target>.dict. Existing seed folders are replaced.
      --vectors DIR        Vector files to read (default: vectors/).
      --target NAME        Only this target (repeatable).
      --max-seed-bytes N   Leave out seeds longer than N bytes (default 65536: the engine's
                           input length follows its longest seed, and the 65,536-row frames
                           would make every input that long).
      --list               Print each target's name and summary.
      --replay NAME FILE…  Run target NAME's check on each file; print the findings.

    EXIT CODES: 0 written / listed / no finding, 1 a finding on replay, 2 usage error, 3 could not read or write.
    """

    static func run(_ argv: [String]) -> Int32 {
        var out: URL?
        var vectors = URL(fileURLWithPath: "vectors")
        var only: [String] = []
        var maxSeed = 65_536
        var list = false
        var replay: [String] = []
        var i = 0
        func value() -> String? {
            guard i + 1 < argv.count else { return nil }
            i += 1
            return argv[i]
        }
        while i < argv.count {
            switch argv[i] {
            case "-h", "--help": print(help); return 0
            case "--list": list = true
            case "--out": guard let v = value() else { return CLI.fail("--out needs a directory\n\n\(help)") }; out = URL(fileURLWithPath: v)
            case "--vectors": guard let v = value() else { return CLI.fail("--vectors needs a directory\n\n\(help)") }; vectors = URL(fileURLWithPath: v)
            case "--target": guard let v = value() else { return CLI.fail("--target needs a name\n\n\(help)") }; only.append(v)
            case "--max-seed-bytes":
                guard let v = value(), let n = Int(v), n > 0 else { return CLI.fail("--max-seed-bytes needs a positive integer\n\n\(help)") }
                maxSeed = n
            case "--replay":
                replay = Array(argv[(i + 1)...])
                i = argv.count
                continue
            default: return CLI.fail("unknown option \(argv[i])\n\n\(help)")
            }
            i += 1
        }
        let surfaces = ConformanceFuzzSurfaces.all
        if list {
            for s in surfaces { print("\(s.name)\t\(s.summary)") }
            return 0
        }
        if !replay.isEmpty { return self.replay(replay) }
        guard let out else { return CLI.fail("give --out DIR, --list or --replay\n\n\(help)") }
        for name in only where !surfaces.contains(where: { $0.name == name }) {
            return CLI.fail("no fuzz target \(name) (see --list)")
        }
        let chosen = only.isEmpty ? surfaces : surfaces.filter { only.contains($0.name) }
        var files: [String: VectorFile] = [:]
        for format in Set(chosen.flatMap(\.seedFormats)) {
            do { files[format] = try VectorFile.read(format: format, in: vectors) } catch {
                return CLI.fail("cannot read \(format) vectors in \(vectors.path): \(error)", code: 3)
            }
        }
        let fm = FileManager.default
        for s in chosen {
            let all = s.seedFormats.sorted().flatMap { files[$0].map(s.seeds(from:)) ?? [] } + s.extraSeeds()
            let kept = all.filter { $0.count <= maxSeed }
            let dir = out.appendingPathComponent(s.name)
            do {
                if fm.fileExists(atPath: dir.path) { try fm.removeItem(at: dir) }
                try fm.createDirectory(at: dir, withIntermediateDirectories: true)
                var names = Set<String>()
                for seed in kept {
                    let name = String(SHA256.hash(seed).hex.prefix(16))
                    guard names.insert(name).inserted else { continue }
                    try Data(seed).write(to: dir.appendingPathComponent(name))
                }
                let tokens = s.dictionary(seeds: kept)
                let dict = tokens.map { "\"\(escape($0))\"" }.joined(separator: "\n")
                try Data(("# \(s.name): tokens of its seeds (conformance fuzz-corpus)\n" + dict + "\n").utf8)
                    .write(to: out.appendingPathComponent("\(s.name).dict"))
                print("\(s.name): \(names.count) seed(s)\(all.count > kept.count ? ", \(all.count - kept.count) over \(maxSeed) bytes left out" : ""), \(tokens.count) token(s)")
            } catch {
                return CLI.fail("cannot write \(dir.path): \(error)", code: 3)
            }
        }
        return 0
    }

    /// libFuzzer dictionary syntax: printable ASCII as is, `\\`, `"` and every other byte as \xNN.
    static func escape(_ bytes: [UInt8]) -> String {
        var s = ""
        for b in bytes {
            if b == 0x5c || b == 0x22 || b < 0x20 || b > 0x7e { s += String(format: "\\x%02X", b) } else { s.append(Character(UnicodeScalar(b))) }
        }
        return s
    }

    static func replay(_ args: [String]) -> Int32 {
        guard let name = args.first, let s = ConformanceFuzzSurfaces.named(name) else {
            return CLI.fail("--replay needs a target name (see --list), then files")
        }
        var found = 0
        for path in args.dropFirst() {
            guard let data = fm(path) else { return CLI.fail("cannot read \(path)", code: 3) }
            if let f = s.run(data) { found += 1; print("\(path): \(f)") } else { print("\(path): holds") }
        }
        return found == 0 ? 0 : 1
    }

    static func fm(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
}
