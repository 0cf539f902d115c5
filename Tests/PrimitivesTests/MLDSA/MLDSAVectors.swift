import Foundation
import Primitives
import Testing

/// Loaders for the ML-DSA-65 known-answer files under `KAT/acvp`, `KAT/ml-dsa`, `KAT/pq-kat` and
/// `KAT/accumulated` (see PROVENANCE-mldsa.part.md). Every loader returns [] when a file is missing
/// or malformed, and each suite asserts the expected non-zero count.
enum MLDSAVectors {
    static func json(_ relative: String) -> [String: Any] {
        guard let data = try? KATFile.data(relative),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// (group, test) pairs of an ACVP file, in file order.
    static func acvpTests(_ relative: String) -> [(group: [String: Any], test: [String: Any])] {
        let groups = json(relative)["testGroups"] as? [[String: Any]] ?? []
        return groups.flatMap { g in (g["tests"] as? [[String: Any]] ?? []).map { (g, $0) } }
    }

    /// Hex field (ACVP writes uppercase); nil when absent, [] when empty.
    static func bytes(_ dict: [String: Any], _ key: String) -> [UInt8]? {
        (dict[key] as? String).flatMap(Hex.decode)
    }

    /// The signing interface of an ACVP group and the bytes it signs: `mu` for external-mu
    /// internal groups, otherwise `message` (pre-hashed with `hashAlg` for preHash groups).
    static func interfaceAndInput(_ g: [String: Any], _ t: [String: Any]) -> (Interface, [UInt8])? {
        if (g["signatureInterface"] as? String) == "internal" {
            if (g["externalMu"] as? Bool) == true {
                return bytes(t, "mu").map { (.internalMu, $0) }
            }
            return bytes(t, "message").map { (.internalMessage, $0) }
        }
        guard let m = bytes(t, "message") else { return nil }
        if (g["preHash"] as? String) == "preHash" {
            guard let alg = t["hashAlg"] as? String else { return nil }
            return (.externalPreHash(alg), m)
        }
        return (.externalPure, m)
    }

    // MARK: keyGen

    struct KeyGenCase: CustomTestStringConvertible, Sendable {
        let name: String
        let seed: [UInt8], pk: [UInt8], sk: [UInt8]
        var testDescription: String { name }
    }

    static let keyGenFile = "acvp/ML-DSA-keyGen-FIPS204.ML-DSA-65.internalProjection.json"

    static func keyGenCases() -> [KeyGenCase] {
        acvpTests(keyGenFile).compactMap { g, t in
            guard let seed = bytes(t, "seed"), let pk = bytes(t, "pk"), let sk = bytes(t, "sk") else { return nil }
            return KeyGenCase(name: "keyGen tgId=\(g["tgId"] ?? "?") tcId=\(t["tcId"] ?? "?")", seed: seed, pk: pk, sk: sk)
        }
    }

    // MARK: sigGen

    enum Interface: Sendable, Equatable {
        case externalPure
        case externalPreHash(String)   // ACVP hashAlg name
        case internalMessage           // `message` is M'
        case internalMu                // `mu` given
    }

    struct SigGenCase: CustomTestStringConvertible, Sendable {
        let name: String
        let interface: Interface
        let sk: [UInt8]
        let input: [UInt8]          // message (external / internal) or μ
        let context: [UInt8]
        let rnd: [UInt8]            // 32 zero bytes for deterministic groups
        let signature: [UInt8]
        var testDescription: String { name }
    }

    static let sigGenExternalFile = "acvp/ML-DSA-sigGen-FIPS204.ML-DSA-65.external.prompt+expectedResults.json"
    static let sigGenInternalFile = "acvp/ML-DSA-sigGen-FIPS204.ML-DSA-65.internal.prompt+expectedResults.json"

    static func sigGenCases(_ file: String) -> [SigGenCase] {
        acvpTests(file).compactMap { g, t in
            guard let sk = bytes(t, "sk"), let signature = bytes(t, "signature"),
                  let deterministic = g["deterministic"] as? Bool else { return nil }
            let rnd: [UInt8]
            if deterministic {
                rnd = [UInt8](repeating: 0, count: 32)
            } else {
                guard let r = bytes(t, "rnd") else { return nil }
                rnd = r
            }
            guard let (interface, input) = interfaceAndInput(g, t) else { return nil }
            let kind = "\(deterministic ? "det" : "hedged") \(interface)"
            return SigGenCase(name: "sigGen tgId=\(g["tgId"] ?? "?") tcId=\(t["tcId"] ?? "?") \(kind)",
                              interface: interface, sk: sk, input: input, context: bytes(t, "context") ?? [],
                              rnd: rnd, signature: signature)
        }
    }

    // MARK: sigVer

    struct SigVerCase: CustomTestStringConvertible, Sendable {
        let name: String
        let interface: Interface
        let pk: [UInt8]
        let input: [UInt8]
        let context: [UInt8]
        let signature: [UInt8]
        let expected: Bool
        var testDescription: String { name }
    }

    static let sigVerFile = "acvp/ML-DSA-sigVer-FIPS204.ML-DSA-65.internalProjection.json"

    static func sigVerCases() -> [SigVerCase] {
        acvpTests(sigVerFile).compactMap { g, t in
            guard let pk = bytes(t, "pk"), let signature = bytes(t, "signature"),
                  let expected = t["testPassed"] as? Bool else { return nil }
            guard let (interface, input) = interfaceAndInput(g, t) else { return nil }
            let reason = (t["reason"] as? String ?? "").trimmingCharacters(in: .whitespaces)
            return SigVerCase(name: "sigVer tgId=\(g["tgId"] ?? "?") tcId=\(t["tcId"] ?? "?") \(interface) expect \(expected) (\(reason))",
                              interface: interface, pk: pk, input: input, context: bytes(t, "context") ?? [],
                              signature: signature, expected: expected)
        }
    }

    // MARK: pq-kat

    struct DetKATCase: CustomTestStringConvertible, Sendable {
        let name: String
        let xi: [UInt8], pk: [UInt8], sk: [UInt8], msg: [UInt8], ctx: [UInt8], sm: [UInt8]
        var testDescription: String { name }
    }

    static let detKATFile = "pq-kat/kat_MLDSA_65_det_pure.first10.rsp"

    static func detKATCases() -> [DetKATCase] {
        guard let text = try? KATFile.text(detKATFile) else { return [] }
        // Records are not separated by blank lines: each starts at its `count = ` line.
        var records: [[String: String]] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if key == "count" { records.append([:]) }
            guard !records.isEmpty, records[records.count - 1][key] == nil else { return [] }  // malformed
            records[records.count - 1][key] = value
        }
        return records.compactMap { f in
            guard let count = f["count"], let xi = f["xi"].flatMap(Hex.decode), let pk = f["pk"].flatMap(Hex.decode),
                  let sk = f["sk"].flatMap(Hex.decode), let msg = f["msg"].flatMap(Hex.decode),
                  let ctx = f["ctx"].flatMap(Hex.decode), let sm = f["sm"].flatMap(Hex.decode),
                  f["mlen"].flatMap(Int.init) == msg.count, f["smlen"].flatMap(Int.init) == sm.count
            else { return nil }
            return DetKATCase(name: "kat_MLDSA_65_det_pure count=\(count)", xi: xi, pk: pk, sk: sk, msg: msg, ctx: ctx, sm: sm)
        }
    }

    // MARK: ACVP spec rejection KATs

    struct RejectionCase: CustomTestStringConvertible, Sendable {
        let name: String
        let seed: [UInt8], keyHash: [UInt8], mPrime: [UInt8], signatureHash: [UInt8]
        var testDescription: String { name }
    }

    static let rejectionFile = "ml-dsa/acvp-spec-rejection-kats.ML-DSA-65.json"

    static func rejectionCases() -> [RejectionCase] {
        let root = json(rejectionFile)
        return ["rejectionCaseKats", "manyRejectionKats"].flatMap { list in
            (root[list] as? [[String: Any]] ?? []).compactMap { t -> RejectionCase? in
                guard let seed = bytes(t, "seed"), let keyHash = bytes(t, "keyHash"),
                      let mPrime = bytes(t, "mPrime"), let sigHash = bytes(t, "signatureHash") else { return nil }
                let rejections = (t["rejectionCount"] as? Int).map { " rejectionCount=\($0)" } ?? ""
                return RejectionCase(name: "\(list) tcId=\(t["tcId"] ?? "?")\(rejections)", seed: seed,
                                     keyHash: keyHash, mPrime: mPrime, signatureHash: sigHash)
            }
        }
    }
}
